"""Checks HTTP requests against Discord's OpenAPI 3.1 description (JSON Schema 2020-12).

The spec is read once per process; a validator is compiled lazily per (route, method) and cached.
Allowed differences (Discord's README for the spec lists them): integers are accepted wherever the
spec asks for a snowflake string. Limits the spec does not carry (2,000-character content for bots,
10 MiB per file) are checked here too; timing rules live in the server, which knows the clock.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

CONTENT_LIMIT = 2000
EMBED_TOTAL_LIMIT = 6000
FILE_LIMIT = 10 * 1024 * 1024
MAX_FILES = 10

_SPEC_URI = "urn:discord-api-spec"


def spec_path() -> Path:
    env = os.environ.get("PARTIDA_DISCORD_SPEC")
    if env:
        return Path(env)
    # the copy vendored beside this file (MIT licence kept with it), so any clone runs every check
    return Path(__file__).resolve().parent / "discord-api-spec" / "openapi.json"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _allow_integer_snowflakes(node: Any) -> Any:
    """Return a copy of the spec where every snowflake string also admits a non-negative integer."""
    if isinstance(node, dict):
        new = {k: _allow_integer_snowflakes(v) for k, v in node.items()}
        if new.get("format") == "snowflake":
            return {"anyOf": [new, {"type": "integer", "minimum": 0}]}
        return new
    if isinstance(node, list):
        return [_allow_integer_snowflakes(v) for v in node]
    return node


@lru_cache(maxsize=1)
def load_spec() -> dict[str, Any]:
    with open(spec_path(), encoding="utf-8") as fh:
        raw = json.load(fh)
    return _allow_integer_snowflakes(raw)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True)
class SpecRoute:
    template: str  # e.g. /channels/{channel_id}/messages
    regex: re.Pattern[str]
    params: int
    literal_len: int


@dataclass
class Problem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class SpecChecker:
    """Matches request paths to spec routes and validates JSON bodies."""

    def __init__(self) -> None:
        self.spec = load_spec()
        self._routes: list[SpecRoute] = []
        for template in self.spec["paths"]:
            pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", r"[^/]+", re.escape(template)) + "$"
            params = template.count("{")
            literal = len(re.sub(r"\{[^}]+\}", "", template))
            self._routes.append(SpecRoute(template, re.compile(pattern), params, literal))
        self._validators: dict[tuple[str, str], Any] = {}
        self._registry = None

    # -- routes -----------------------------------------------------------------------------------
    def match(self, path: str) -> str | None:
        """The spec path template for a concrete path (without the /api/v10 prefix), or None."""
        best: SpecRoute | None = None
        for route in self._routes:
            if route.regex.match(path) and (
                best is None or (route.params, -route.literal_len) < (best.params, -best.literal_len)
            ):
                best = route
        return best.template if best else None

    def has_operation(self, template: str, method: str) -> bool:
        return method.lower() in self.spec["paths"].get(template, {})

    # -- validation -------------------------------------------------------------------------------
    def registry(self) -> Any:
        if self._registry is None:
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT202012

            self._registry = Registry().with_resource(
                _SPEC_URI, Resource.from_contents(self.spec, default_specification=DRAFT202012)
            )
        return self._registry

    def _validator(self, template: str, method: str) -> Any:
        key = (template, method.lower())
        if key in self._validators:
            return self._validators[key]
        from jsonschema import Draft202012Validator

        self.registry()
        op = self.spec["paths"][template].get(method.lower(), {})
        content = (op.get("requestBody") or {}).get("content") or {}
        validator = None
        if "application/json" in content:
            pointer = "/".join(
                _escape(p) for p in ("paths", template, method.lower(), "requestBody", "content",
                                     "application/json", "schema")
            )
            validator = Draft202012Validator({"$ref": f"{_SPEC_URI}#/{pointer}"}, registry=self._registry)
        self._validators[key] = validator
        return validator

    def check_response(self, template: str, method: str, status: int, body: Any) -> list[Problem]:
        """Does a stand-in response have the shape the spec promises (what discord.py was written for)?"""
        key = (template, f"{method.lower()}#{status}")
        if key not in self._validators:
            from jsonschema import Draft202012Validator

            op = self.spec["paths"].get(template, {}).get(method.lower(), {})
            content = ((op.get("responses") or {}).get(str(status)) or {}).get("content") or {}
            validator = None
            if "application/json" in content:
                pointer = "/".join(_escape(p) for p in ("paths", template, method.lower(), "responses", str(status),
                                                        "content", "application/json", "schema"))
                validator = Draft202012Validator({"$ref": f"{_SPEC_URI}#/{pointer}"}, registry=self.registry())
            self._validators[key] = validator
        validator = self._validators[key]
        if validator is None:
            return []
        errors = list(validator.iter_errors(body))
        if not errors:
            return []
        err = explain(errors)
        return [Problem(".".join(str(p) for p in err.absolute_path), describe(err))]

    def check_body(self, template: str, method: str, body: Any) -> list[Problem]:
        problems: list[Problem] = []
        if not self.has_operation(template, method):
            return [Problem("", f"{method.upper()} {template} is not an operation in the spec")]
        validator = self._validator(template, method)
        if validator is not None and body is not None:
            errors = list(validator.iter_errors(body))
            if errors:
                err = explain(errors)
                where = ".".join(str(p) for p in err.absolute_path)
                problems.append(Problem(where, describe(err)))
        seen = {p.where for p in problems}
        problems.extend(p for p in extra_limits(body) if p.where not in seen)
        return problems


def _is_discriminator_miss(error: Any) -> bool:
    """A union branch ruled out by the object's own ``type`` (Discord's discriminator) not matching."""
    return error.validator in ("enum", "const") and list(error.relative_path) == ["type"]


def explain(errors: list[Any]) -> Any:
    """The most useful error: inside oneOf/anyOf, follow the branch whose ``type`` matched, deepest first."""
    def depth(e: Any) -> int:
        return len(e.absolute_path)

    error = max(errors, key=depth)
    while error.context:
        branches: dict[Any, list[Any]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        viable = [b for b in branches.values() if not any(_is_discriminator_miss(e) for e in b)]
        group = max(viable or list(branches.values()), key=lambda b: max(depth(e) for e in b))
        error = max(group, key=depth)
    return error


def describe(error: Any) -> str:
    """A short, readable message (jsonschema's own one starts with the whole offending value)."""
    v, limit, inst = error.validator, error.validator_value, error.instance
    if v in ("maxLength", "minLength") and isinstance(inst, str):
        return f"length {len(inst)} breaks {v} {limit} ({_short(repr(inst), 60)})"
    if v in ("maxItems", "minItems") and isinstance(inst, list):
        return f"{len(inst)} items break {v} {limit}"
    if v in ("maximum", "minimum"):
        return f"{inst!r} breaks {v} {limit}"
    return _short(error.message)


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def extra_limits(body: Any) -> list[Problem]:
    """Limits Discord enforces for bots that the spec does not express."""
    problems: list[Problem] = []
    if not isinstance(body, dict):
        return problems
    candidates = [("", body)]
    if isinstance(body.get("data"), dict):
        candidates.append(("data.", body["data"]))
    for prefix, obj in candidates:
        content = obj.get("content")
        if isinstance(content, str) and len(content) > CONTENT_LIMIT:
            problems.append(
                Problem(f"{prefix}content", f"Must be {CONTENT_LIMIT} or fewer in length (got {len(content)}).")
            )
        embeds = obj.get("embeds")
        if isinstance(embeds, list):
            total = sum(_embed_chars(e) for e in embeds if isinstance(e, dict))
            if total > EMBED_TOTAL_LIMIT:
                problems.append(Problem(f"{prefix}embeds", f"Embed size exceeds maximum size of {EMBED_TOTAL_LIMIT} "
                                                           f"(got {total})"))
    return problems


def _embed_chars(embed: dict[str, Any]) -> int:
    """Characters Discord counts towards the 6,000 limit shared by all embeds of a message."""
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    for fld in embed.get("fields") or []:
        n += len(fld.get("name") or "") + len(fld.get("value") or "")
    for key, sub in (("footer", "text"), ("author", "name")):
        if isinstance(embed.get(key), dict):
            n += len(embed[key].get(sub) or "")
    return n


def file_problems(files: list[tuple[str, str, bytes]]) -> list[Problem]:
    problems = []
    if len(files) > MAX_FILES:
        problems.append(Problem("files", f"at most {MAX_FILES} files per message, got {len(files)}"))
    for field, filename, data in files:
        if len(data) > FILE_LIMIT:
            problems.append(Problem(field, f"{filename} is {len(data)} bytes; the limit is {FILE_LIMIT}"))
    return problems


_checker: SpecChecker | None = None


def get_checker() -> SpecChecker | None:
    """The shared checker, or None when the spec file is absent outside CI (in CI: an error)."""
    global _checker
    if _checker is not None:
        return _checker
    if not spec_path().is_file():
        if in_ci():
            raise RuntimeError(f"Discord API spec not found at {spec_path()} (CI=true: the check must run)")
        return None
    _checker = SpecChecker()
    return _checker


def response_validator(schema_name: str) -> Any:
    """A validator for one of the spec's component schemas (used to check the stand-in's own objects)."""
    checker = get_checker()
    if checker is None:
        return None
    from jsonschema import Draft202012Validator

    return Draft202012Validator(
        {"$ref": f"{_SPEC_URI}#/components/schemas/{schema_name}"}, registry=checker.registry()
    )
