// Placeholder so the target has a source until the module's real files land; delete when adding them.
