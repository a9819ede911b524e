# Sourced by the device scripts (device_run.sh, gemm_device_run.sh, gemm_suite_device.sh):
# installs lower-tc and the carried wheels (.whl: xDSL and its pure-Python dependencies) into
# /tmp/site and sets PYTHONPATH and `py` (python3 -P: import lower_tc from /tmp/site, never
# from the source folders). A warm machine keeps the last call's install, and pip --target
# does not replace it: /tmp/site is removed first.
rm -rf /tmp/site
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl \
  && python3 -m pip install -q --no-index --no-deps --no-build-isolation --target /tmp/site . \
  || { echo "install failed"; exit 1; }
export PYTHONPATH=/tmp/site
py="python3 -P"
