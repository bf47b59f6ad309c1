#!/usr/bin/env python3
"""bench/policies/fair_rates.py: the weighted max-min fair split of shaped links, by hand."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "policies"))
from fair_rates import ZERO_SHARE_WEIGHT, max_min_fair  # noqa: E402

B = 20e6


def flow(weight, src, dst):
    return (weight, (("out", src), ("in", dst)))


class MaxMinFairTest(unittest.TestCase):
    def test_unlimited_receivers_give_the_shares_of_the_source(self):
        # Two jobs at one source, each to a receiver of its own: s x B, as the contract says.
        r = max_min_fair({"a": flow(0.75, 1, 2), "b": flow(0.25, 1, 3)}, B)
        self.assertAlmostEqual(r["a"], 0.75 * B)
        self.assertAlmostEqual(r["b"], 0.25 * B)

    def test_one_receiver_of_two_sources_halves_each(self):
        # A job with share 1 whose one reducer (host 3) fetches from hosts 1 and 2: the
        # receiver's link is the bottleneck, B/2 from each source, not s x B.
        r = max_min_fair({"a1": flow(1.0, 1, 3), "a2": flow(1.0, 2, 3)}, B)
        self.assertAlmostEqual(r["a1"], B / 2)
        self.assertAlmostEqual(r["a2"], B / 2)

    def test_what_a_receiver_bound_job_leaves_goes_to_the_others(self):
        # Job a (share 1) as above; job b (share 0) from host 1 to host 4: b gets the half of
        # host 1's link that a cannot use, lending as the limiter does.
        r = max_min_fair({"a1": flow(1.0, 1, 3), "a2": flow(1.0, 2, 3), "b": flow(ZERO_SHARE_WEIGHT, 1, 4)}, B)
        self.assertAlmostEqual(r["a1"], B / 2, delta=1e-6 * B)
        self.assertAlmostEqual(r["b"], B / 2, delta=1e-6 * B)
        self.assertAlmostEqual(r["a1"] + r["b"], B, delta=1e-6 * B)


if __name__ == "__main__":
    unittest.main()
