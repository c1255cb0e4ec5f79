"""The packages, for setuptools (everything else is in pyproject.toml).

The example contests (contests/) and the database's migrations (migrations/) stay at the top
of the checkout, where the docs and the tests name them, and ship inside the package as
bot/contests and bot/migrations (package data: found beside the code under any install
scheme; bot/support/shipped.py looks for them there, then in the checkout). pyproject.toml
cannot map a folder outside the package into it alongside a package search, hence this file.
"""

from setuptools import find_packages, setup

SHIPPED = {"bot.contests": "contests", "bot.migrations": "migrations"}

setup(packages=[*find_packages(include=["bot", "bot.*"]), *SHIPPED], package_dir=SHIPPED)
