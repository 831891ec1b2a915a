#!/usr/bin/env python3
"""Copies measured tables from reports/ into README.md between markers, so the
README never carries figures of its own:
  <!-- from reports/fpga.md: Summary -->  ...  <!-- end -->
The named section's table and the paragraph after it replace what is between."""
import re
import sys

readme = open("README.md").read()

def section(path, title):
    text = open(path).read()
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        sys.exit(f"readme_tables: no section '{title}' in {path}")
    return m.group(1).strip() + "\n"

def fill(m):
    path, title = m.group(1), m.group(2)
    return f"<!-- from {path}: {title} -->\n{section(path, title)}<!-- end -->"

new = re.sub(r"<!-- from (\S+): (.+?) -->\n.*?<!-- end -->", fill, readme, flags=re.S)
if new != readme:
    open("README.md", "w").write(new)
    print("README.md: tables updated from reports/")
