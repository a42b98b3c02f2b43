"""``riichi schema NAME``: the JSON Schema of a request or response model of the contract."""

from __future__ import annotations

import argparse
import json

from engine.core.errors import InvalidRequest
from engine.services.schemas import SCHEMAS


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", help=f"one of: {', '.join(SCHEMAS)}")


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        print("\n".join(SCHEMAS))
        return 0
    model = SCHEMAS.get(args.name)
    if model is None:
        raise InvalidRequest(f"unknown schema `{args.name}`; schemas: {', '.join(SCHEMAS)}")
    print(json.dumps(model.model_json_schema(), indent=2))
    return 0
