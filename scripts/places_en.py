"""Regenerate src/jiyi/core/extraction/places_en.txt: the English-speaking world's towns and
cities, from the area-code geodata that ships inside phonenumbers (a jiyi dependency, Apache
2.0, libphonenumber's geocoding files).

    .venv/bin/python scripts/places_en.py

Every area-code description of the US and Canada (+1), the UK (+44), Ireland (+353),
Australia (+61) and New Zealand (+64) names a place ("Boulder, CO", "San Marcos, TX"); the
names before the comma, lower-cased, one a line. The rules read the list only where a
sentence already says "a place goes here" ("I'm in Boulder now"), never to decide that a bare
capitalised word is a city.
"""

from __future__ import annotations

import re
from pathlib import Path

from phonenumbers.geodata import GEOCODE_DATA

OUT = Path(__file__).resolve().parents[1] / "src/jiyi/core/extraction/places_en.txt"
_COUNTRIES = ("1", "44", "353", "61", "64")
_NAME = re.compile(r"[a-z][a-z .'-]{2,40}")


def main() -> None:
    names: set[str] = set()
    for prefix, where in GEOCODE_DATA.items():
        if prefix.startswith(_COUNTRIES) and (said := where.get("en")):
            name = said.split(",")[0].strip().lower()
            if _NAME.fullmatch(name):
                names.add(name)
    OUT.write_text("\n".join(sorted(names)) + "\n", encoding="utf-8")
    print(f"{len(names)} places written to {OUT}")


if __name__ == "__main__":
    main()
