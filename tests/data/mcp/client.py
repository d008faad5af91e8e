"""A real MCP client (the official Python SDK, `mcp`) driving `memval mcp` over stdio.

Usage: client.py MEMVAL REPO MEMORY_DIR OUTSIDE_FILE CLAUDE_HOME

Lists the tools, calls each one (validate_memories with a progress token), makes a call with
arguments of the wrong type, one naming a path outside the repo, and one to a tool that does
not exist, then prints one JSON document with everything the server answered, for
tests/mcp_server.rs to check. It asserts nothing itself: the Rust test does.
"""

import asyncio
import json
import sys

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client


def result_of(result):
    return {
        "is_error": bool(result.is_error),
        "texts": [c.text for c in result.content if getattr(c, "type", "") == "text"],
    }


async def call(session, name, arguments, **kw):
    try:
        return result_of(await session.call_tool(name, arguments, **kw))
    except MCPError as e:
        return {"protocol_error": {"code": e.error.code, "message": e.error.message}}


async def main(memval, repo, memory_dir, outside, claude_home):
    server = StdioServerParameters(
        command=memval,
        args=["mcp"],
        env={"CLAUDE_CONFIG_DIR": claude_home, "MEMVAL_LOG": "warn"},
    )
    out = {}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            out["server"] = {"name": init.server_info.name, "version": init.server_info.version}
            tools = await session.list_tools()
            out["tools"] = {t.name: t.input_schema for t in tools.tools}

            progress = []

            async def on_progress(value, total, message):
                progress.append({"progress": value, "total": total, "message": message})

            out["validate_memories"] = await call(
                session, "validate_memories", {"repo": repo, "memories": "CLAUDE.md"}, progress_callback=on_progress
            )
            out["progress"] = progress
            out["check_memory"] = await call(
                session, "check_memory", {"repo": repo, "text": "The cache lives in `src/cache.rs`.\n"}
            )
            out["judge_draft"] = await call(
                session, "judge_draft", {"memory_dir": memory_dir, "draft": "Just run `git commit --no-verify` and push."}
            )
            out["reconcile"] = await call(session, "reconcile", {"repo": repo, "memories": ["CLAUDE.md"]})
            out["malformed"] = await call(session, "validate_memories", {"repo": 42})
            out["outside"] = await call(session, "validate_memories", {"repo": repo, "memories": outside})
            out["outside_dotdot"] = await call(session, "reconcile", {"repo": repo, "memories": ["../" + outside.rsplit("/", 2)[-2] + "/CLAUDE.md"]})
            out["unknown_tool"] = await call(session, "no_such_tool", {})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
