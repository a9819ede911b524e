"""lit configuration for lower-tc's FileCheck suite (run by `python -m pytest` too)."""

import os
import sys

import lit.formats

config.name = "lower-tc"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]
# lower-tc and filecheck live beside the Python that runs lit (a venv's bin/).
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
config.substitutions.append(("%examples", os.path.join(config.test_source_root, "..", "examples")))
