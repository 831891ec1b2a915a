# The cffi extension trc._libtrc (the C model library, ../model) is built
# by trc_build.py; everything else is in pyproject.toml.
from setuptools import setup

setup(cffi_modules=["trc_build.py:ffibuilder"])
