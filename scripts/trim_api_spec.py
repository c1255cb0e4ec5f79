"""Keep of the official Bot API spec (../shared/telegram-bot-api/api.json, MIT) only what the
fake Bot API server checks: each method's parameters, their types and whether required.

    python scripts/trim_api_spec.py ../shared/telegram-bot-api/api.json bot/apispec/methods.json
"""

import json
import sys


def main(src: str, dest: str) -> None:
    data = json.load(open(src, encoding="utf-8"))
    methods = {
        name: {
            "returns": m.get("returns", []),
            "fields": [
                {"name": f["name"], "types": f.get("types", []), "required": bool(f.get("required"))}
                for f in m.get("fields", [])
            ],
        }
        for name, m in data["methods"].items()
    }
    out = {"version": data.get("version"), "release_date": data.get("release_date"),
           "methods": methods}
    with open(dest, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=0, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
