"""The Python SDK's default `Client` (mode auto) over legacy SSE, against `serve --wire go-sdk-1.7.0`.

Its auto mode opens with `server/discover`: v1.7.0 answers it on the stream, offering 2026-07-28,
and the client adopts that revision; against v1.6.1 (the default profile) it gets a 400 and gives
up, as it does against a Go SDK v1.6.1 server (docs/MCP_SERVER.md, "Clients that fail against
v1.6.1"). Usage: python3 python_sse.py http://127.0.0.1:PORT/sse
"""

import asyncio
import sys

from mcp.client.client import Client
from mcp.client.sse import sse_client


async def main(url: str) -> None:
    async with Client(sse_client(url)) as client:
        version = client.protocol_version
        assert version == "2026-07-28", f"adopted {version!r}, expected 2026-07-28"
        tools = (await client.list_tools()).tools
        assert len(tools) == 20, f"{len(tools)} tools listed"
        result = await client.call_tool(
            "reverse_geocode", {"latitude": 25.0866, "longitude": 55.1474}
        )
        assert not result.is_error, result
        assert "Dubai Marina" in result.content[0].text, result.content[0].text
        print(f"ok: protocol {version}, {len(tools)} tools, reverse_geocode answered")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
