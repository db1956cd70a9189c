#!/bin/sh
# The calibration check on the GPU (exit 77, skipped, without one).
exec "${top_builddir:-.}/tests/gpu/test_calibration"
