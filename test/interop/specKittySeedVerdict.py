"""Spec Kitty's own verdict on seed files, for test/interop/seedSchema.test.ts.

Usage: python3 specKittySeedVerdict.py <spec-kitty src folder> FILE...
Prints one JSON line per file: {"file", "ok", "terms" | "errors"}. Spec Kitty's code is imported
in place from the given folder (its `glossary` package: ruamel.yaml load, pydantic schema),
never copied; only the two modules it imports from elsewhere in its repository are stubbed here.
Exit 3 when ruamel.yaml or pydantic is missing (the test is then skipped).
"""
import datetime
import json
import sys
import types
from pathlib import Path

try:
    import pydantic  # noqa: F401
    from ruamel.yaml import YAML
except ImportError as missing:
    print(f"missing: {missing}", file=sys.stderr)
    sys.exit(3)

src = Path(sys.argv[1])
clock = types.ModuleType("kernel.clock")
clock.datetime = datetime.datetime
clock.now_utc = lambda: datetime.datetime.now(datetime.timezone.utc)
clock.now_utc_iso = lambda: clock.now_utc().isoformat()
clock.parse_iso = datetime.datetime.fromisoformat
kernel = types.ModuleType("kernel")
kernel.__path__ = []
sys.modules["kernel"] = kernel
sys.modules["kernel.clock"] = clock
glossary = types.ModuleType("glossary")  # its __init__ imports modules not in the reference folder
glossary.__path__ = [str(src / "glossary")]
sys.modules["glossary"] = glossary

from glossary.exceptions import SeedFileValidationError  # noqa: E402
from glossary.seed_validation import validate_seed_file_data  # noqa: E402

for name in sys.argv[2:]:
    path = Path(name)
    yaml = YAML()
    yaml.preserve_quotes = True
    try:
        data = yaml.load(path)  # as its load_seed_file does
    except Exception as error:  # noqa: BLE001 - any loader error refuses the file
        print(json.dumps({"file": path.name, "ok": False, "errors": [f"YAML parse error: {str(error).splitlines()[0]}"]}))
        continue
    try:
        seed = validate_seed_file_data(data, path)
        print(json.dumps({"file": path.name, "ok": True, "terms": [[t.surface, t.definition] for t in seed.terms]}))
    except SeedFileValidationError as error:
        print(json.dumps({"file": path.name, "ok": False, "errors": [e.message for e in error.errors]}))
