"""Regenerate src/jiyi/core/extraction/places_en.txt: the English-speaking world's towns and
cities, from the area-code geodata that ships inside phonenumbers (a jiyi dependency, Apache
2.0, libphonenumber's geocoding files).

    .venv/bin/python scripts/places_en.py

Every area-code description of the US and Canada (+1), the UK (+44), Ireland (+353),
Australia (+61) and New Zealand (+64) names a place ("Boulder, CO", "San Marcos, TX"); so do
those of countries where English is written every day beside other languages: India,
Pakistan, Bangladesh, Sri Lanka, Nigeria, Ghana, Kenya, Uganda, Tanzania, Zambia, Zimbabwe,
South Africa, the Philippines, Malaysia, Singapore, the UAE (several towns to a description:
"Mandya/Maddur"). The names before the comma, each town of a "/" list without its
parenthesis, lower-cased, one a line; descriptions of a region ("Southern Province", "the
coast") are left out. The rules read the list only where a
sentence already says "a place goes here" ("I'm in Boulder now"), never to decide that a bare
capitalised word is a city.
"""

from __future__ import annotations

import re
from pathlib import Path

from phonenumbers.geodata import GEOCODE_DATA

OUT = Path(__file__).resolve().parents[1] / "src/jiyi/core/extraction/places_en.txt"
_COUNTRIES = ("1", "44", "353", "61", "64")
# (India, Pakistan, Bangladesh, Sri Lanka, Nigeria, Ghana, Kenya, Uganda, Tanzania, Zambia,
# Zimbabwe, South Africa, the Philippines, Malaysia, Singapore, the UAE)
_MORE = ("91", "92", "880", "94", "234", "233", "254", "256", "255", "260", "263", "27", "63",
         "60", "65", "971")  # fmt: skip
_NAME = re.compile(r"[a-z][a-z .'-]{2,40}")
_REGION = re.compile(
    r"province|region|district|coast|parts? of|central|northern|southern|eastern|western|"
    r"agency|other|area|local"
)


def main() -> None:
    names: set[str] = set()
    for prefix, where in GEOCODE_DATA.items():
        if not (said := where.get("en")):
            continue
        if prefix.startswith(_COUNTRIES):
            name = said.split(",")[0].strip().lower()
            if _NAME.fullmatch(name):
                names.add(name)
        elif prefix.startswith(_MORE):
            for part in said.split(",")[0].split("/"):
                name = re.sub(r"\(.*?\)", "", part).strip().lower()
                if _NAME.fullmatch(name) and not _REGION.search(name):
                    names.add(name)
    OUT.write_text("\n".join(sorted(names)) + "\n", encoding="utf-8")
    print(f"{len(names)} places written to {OUT}")


if __name__ == "__main__":
    main()
