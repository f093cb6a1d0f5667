"""A scripted agent for examples/task_harness.py, standing in for a model in CI.

`agent` finds the task whose request it was handed in the task files (plain JSON, read without
careem-mcp) and makes a correct agent's calls over MCP with the official Python SDK: the task's
right walk, or its expected actions, each id taken from the answers before it. Every task must
pass with it. `idle` calls nothing, so every task that needs a change fails with it: CI checks
that the harness then exits 1.

    python examples/task_harness.py --agent examples/scripted_agent.py:agent --tries 2
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mcp import Client

TASKS = Path(__file__).resolve().parent.parent / "tasks"
PLACEHOLDER = re.compile(r"\{\{\s*results\.(\d+)((?:\.[^.}\s]+)*)\s*\}\}")


def task_of(request: str) -> dict:
    for path in sorted(TASKS.glob("*.json")):
        task = json.loads(path.read_text())
        if task["request"] == request:
            return task
    raise LookupError(f"no task asks {request!r}")


def field(answers: list[Any], index: str, path: str) -> Any:
    value = answers[int(index)]
    for part in path.split(".")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def render(value: Any, answers: list[Any]) -> Any:
    """`value` with each `{{results.N.path}}` filled: a whole-string one keeps the field's type."""
    if isinstance(value, dict):
        return {key: render(item, answers) for key, item in value.items()}
    if isinstance(value, list):
        return [render(item, answers) for item in value]
    if isinstance(value, str):
        whole = PLACEHOLDER.fullmatch(value)
        if whole:
            return field(answers, whole.group(1), whole.group(2))
        return PLACEHOLDER.sub(lambda m: str(field(answers, m.group(1), m.group(2))), value)
    return value


async def agent(request: str, mcp_url: str) -> None:
    task = task_of(request)
    calls = (task.get("walks") or {}).get("right") or task["expected"]["actions"]
    answers: list[Any] = []
    async with Client(mcp_url, mode="legacy") as client:
        for call in calls:
            result = await client.call_tool(call["tool"], render(call.get("arguments", {}), answers))
            answers.append(result.structured_content)


async def idle(request: str, mcp_url: str) -> None:
    """An agent that does nothing at all."""
