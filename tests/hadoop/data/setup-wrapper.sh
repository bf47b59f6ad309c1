# mrjob's setup wrapper, as its hadoop runner ships it: run from the task's working
# directory (where the shipped files are), with that directory on PYTHONPATH, then the
# task's command.
__mrjob_PWD=$PWD
if [ $__mrjob_PWD = "/" ]; then
  __mrjob_PWD=""
fi
export PYTHONPATH=$__mrjob_PWD:$PYTHONPATH
"$@"
