"""Test-wide settings: matplotlib draws off screen, and CI runs hypothesis derandomized so a red
build can always be reproduced."""

import os

import matplotlib
from hypothesis import settings

matplotlib.use("Agg")

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
