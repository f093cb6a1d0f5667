
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'careem-mcp' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'careem-mcp'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'careem-mcp' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio')
            [CompletionResult]::new('scenario', 'scenario', [CompletionResultType]::ParameterValue, 'Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario <tool>` alone clears it')
            [CompletionResult]::new('scenarios', 'scenarios', [CompletionResultType]::ParameterValue, 'List scenarios: kind, match rule, which are forced now, and every entry of the overrides file (sequences, delays, faults) with its problems')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Clear every entry of the overrides file: forced scenarios, sequences, delays, faults')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check every tool file and docs/SOURCE.md; print each problem with its place')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one tool call in process, exactly as the server would, and print the result')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection')
            [CompletionResult]::new('drift', 'drift', [CompletionResultType]::ParameterValue, 'Compare a live MCP server (production) with the project: initialize, every tool, the widget resource; `--write` brings the tool files in line')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Serve as `serve` does, answering each tool call by forwarding it to a live server and writing each new answer as a scenario')
            [CompletionResult]::new('calls', 'calls', [CompletionResultType]::ParameterValue, 'Show the call journal: what the agent actually called')
            [CompletionResult]::new('dashboard', 'dashboard', [CompletionResultType]::ParameterValue, 'A browser page beside any running `serve`: live calls, scenarios, try a call, tools')
            [CompletionResult]::new('clock', 'clock', [CompletionResultType]::ParameterValue, 'Show or set the run''s clock, which every process serving the run reads on its next call: order and ride lifecycles, slots and opening hours follow it')
            [CompletionResult]::new('world', 'world', [CompletionResultType]::ParameterValue, 'Show the run''s world: the basket, the orders and rides with their status now, and the clock (what `serve --stateful` remembers)')
            [CompletionResult]::new('grade', 'grade', [CompletionResultType]::ParameterValue, 'Grade an agent''s run by its end state: replay the expected actions on a fresh copy of the run''s world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2 when grading could not run')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the tools as SPEC''s format alone reads them: every computed scenario rendered for its sample arguments on the seed world, its times as `{{now±…}}` placeholders')
            [CompletionResult]::new('tasks', 'tasks', [CompletionResultType]::ParameterValue, 'The task suite an agent is scored on (docs/TASKS.md): list the tasks, show one, make a run into a task''s start, grade the run')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'careem-mcp;serve' {
            [CompletionResult]::new('--wire', '--wire', [CompletionResultType]::ParameterName, 'The Go SDK release whose wire to speak: production''s as last recorded (v1.6.1), v1.7.0, or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production speaks')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The address to listen on. Anything but loopback exposes the server to the network')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port to listen on; 0 picks a free one')
            [CompletionResult]::new('--server-name', '--server-name', [CompletionResultType]::ParameterName, '`serverInfo.name` in the initialize result')
            [CompletionResult]::new('--server-version', '--server-version', [CompletionResultType]::ParameterName, '`serverInfo.version` in the initialize result')
            [CompletionResult]::new('--widget-domain', '--widget-domain', [CompletionResultType]::ParameterName, 'Where the widget bundle is loaded from')
            [CompletionResult]::new('--allowed-host', '--allowed-host', [CompletionResultType]::ParameterName, 'Also accept this Host (e.g. a tunnel''s, for ChatGPT); loopback names are always accepted')
            [CompletionResult]::new('--session-idle', '--session-idle', [CompletionResultType]::ParameterName, 'End HTTP sessions idle for this many seconds')
            [CompletionResult]::new('--max-sessions', '--max-sessions', [CompletionResultType]::ParameterName, 'Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a new session ends the one idle longest, whose next request gets 404 `session not found`')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Keep at most this many HTTP connections open; at the cap a new one displaces the one idle longest')
            [CompletionResult]::new('--header-timeout', '--header-timeout', [CompletionResultType]::ParameterName, 'Close a connection that has sent no complete request headers for this many seconds (idle kept-alive connections included)')
            [CompletionResult]::new('--body-timeout', '--body-timeout', [CompletionResultType]::ParameterName, 'Answer 408 to a request whose body is still incomplete after this many seconds')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that made a call together. A new run past it gets 404 until one is removed (`reset --run NAME --remove`) or the sessions of a run without a folder end')
            [CompletionResult]::new('--admin', '--admin', [CompletionResultType]::ParameterName, 'Serve the admin API (docs/ADMIN.md: every run''s scenarios, reset, clock, world, calls and grade over HTTP) on this address of its own, `HOST:PORT` or a port; never on the MCP port. Anywhere but loopback it needs a token (--admin-token-file or CAREEM_MCP_ADMIN_TOKEN)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stdio', '--stdio', [CompletionResultType]::ParameterName, 'Speak MCP on stdin/stdout instead of HTTP (logs go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named')
            [CompletionResult]::new('--no-output-schema', '--no-output-schema', [CompletionResultType]::ParameterName, 'Leave `outputSchema` out of the tool list')
            [CompletionResult]::new('--no-meta', '--no-meta', [CompletionResultType]::ParameterName, 'Leave `_meta` and the widget resource out')
            [CompletionResult]::new('--no-journal', '--no-journal', [CompletionResultType]::ParameterName, 'Keep no journal')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;scenario' {
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Wait this long before answering: `2s`, `800ms`, or a range drawn uniformly, `200ms..1500ms`')
            [CompletionResult]::new('--fault', '--fault', [CompletionResultType]::ParameterName, 'Fail every call (or one in `--rate`) this way instead of answering')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'The probability, 0 to 1, that `--fault` fires on a call (the same draws under --seed)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'careem-mcp;scenarios' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;reset' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--remove', '--remove', [CompletionResultType]::ParameterName, 'With --run: delete the run''s folder, its overrides file and journal with it')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How problems are shown: `full` quotes the offending lines (the default on a terminal), `short` is one `path:line: scenario "name": message` line each (the default in a pipe), `json` is one array for machines')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--write-source', '--write-source', [CompletionResultType]::ParameterName, 'Rewrite the table in docs/SOURCE.md from the tool files')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;call' {
            [CompletionResult]::new('--scenario', '--scenario', [CompletionResultType]::ParameterName, 'Force this scenario for this call only')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print compact JSON even on a terminal')
            [CompletionResult]::new('--no-journal', '--no-journal', [CompletionResultType]::ParameterName, 'Keep no journal')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;verify' {
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'Which transport to run the suite over')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Check a server that is already running (its /mcp URL) instead of starting one. Tests 9 and 11 force scenarios, so they run only when `--overrides` names that server''s file')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the results as JSON')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;drift' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'The live server to compare with: its Streamable HTTP URL, or its SSE URL with `--transport sse`')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header every request carries, `''Name: value''` (repeatable), e.g. production''s `Authorization`. Its value is never printed. The variable holds one a line and is read when no --header is given; it and --header-file keep a token off the command line, which other users can read')
            [CompletionResult]::new('--header-file', '--header-file', [CompletionResultType]::ParameterName, 'Read more headers from this file, `Name: value` one a line (blank lines and lines starting with `#` are skipped)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long connecting, and each request after it (for `record`, each forwarded call), may take')
            [CompletionResult]::new('--max-event-size', '--max-event-size', [CompletionResultType]::ParameterName, 'The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB, GiB); a larger one ends the stream or fails the request instead of filling memory')
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'How to reach the server')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How differences are shown')
            [CompletionResult]::new('--max-pages', '--max-pages', [CompletionResultType]::ParameterName, 'Stop reading production after this many pages of one list')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Stop reading production once everything listed and read passes this size as JSON (bytes, or with KiB, MiB, GiB)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Rewrite the `## Definition` of every changed tool, create a file for every tool new in production; tools production no longer has are listed, never deleted')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'careem-mcp;record' {
            [CompletionResult]::new('--upstream', '--upstream', [CompletionResultType]::ParameterName, 'The live server that answers: its Streamable HTTP URL, or its SSE URL with `--upstream-transport sse`')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header every request carries, `''Name: value''` (repeatable), e.g. production''s `Authorization`. Its value is never printed. The variable holds one a line and is read when no --header is given; it and --header-file keep a token off the command line, which other users can read')
            [CompletionResult]::new('--header-file', '--header-file', [CompletionResultType]::ParameterName, 'Read more headers from this file, `Name: value` one a line (blank lines and lines starting with `#` are skipped)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long connecting, and each request after it (for `record`, each forwarded call), may take')
            [CompletionResult]::new('--max-event-size', '--max-event-size', [CompletionResultType]::ParameterName, 'The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB, GiB); a larger one ends the stream or fails the request instead of filling memory')
            [CompletionResult]::new('--upstream-transport', '--upstream-transport', [CompletionResultType]::ParameterName, 'How to reach the upstream')
            [CompletionResult]::new('--into', '--into', [CompletionResultType]::ParameterName, 'Write scenarios into copies of the tool files under this folder, kept apart for review, instead of into the project''s tool files')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'Mask the values of these fields (any case) in recorded answers: phone numbers, e-mail addresses, tokens, names')
            [CompletionResult]::new('--wire', '--wire', [CompletionResultType]::ParameterName, 'The Go SDK release whose wire to speak: production''s as last recorded (v1.6.1), v1.7.0, or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production speaks')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The address to listen on. Anything but loopback exposes the server to the network')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port to listen on; 0 picks a free one')
            [CompletionResult]::new('--server-name', '--server-name', [CompletionResultType]::ParameterName, '`serverInfo.name` in the initialize result')
            [CompletionResult]::new('--server-version', '--server-version', [CompletionResultType]::ParameterName, '`serverInfo.version` in the initialize result')
            [CompletionResult]::new('--widget-domain', '--widget-domain', [CompletionResultType]::ParameterName, 'Where the widget bundle is loaded from')
            [CompletionResult]::new('--allowed-host', '--allowed-host', [CompletionResultType]::ParameterName, 'Also accept this Host (e.g. a tunnel''s, for ChatGPT); loopback names are always accepted')
            [CompletionResult]::new('--session-idle', '--session-idle', [CompletionResultType]::ParameterName, 'End HTTP sessions idle for this many seconds')
            [CompletionResult]::new('--max-sessions', '--max-sessions', [CompletionResultType]::ParameterName, 'Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a new session ends the one idle longest, whose next request gets 404 `session not found`')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Keep at most this many HTTP connections open; at the cap a new one displaces the one idle longest')
            [CompletionResult]::new('--header-timeout', '--header-timeout', [CompletionResultType]::ParameterName, 'Close a connection that has sent no complete request headers for this many seconds (idle kept-alive connections included)')
            [CompletionResult]::new('--body-timeout', '--body-timeout', [CompletionResultType]::ParameterName, 'Answer 408 to a request whose body is still incomplete after this many seconds')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that made a call together. A new run past it gets 404 until one is removed (`reset --run NAME --remove`) or the sessions of a run without a folder end')
            [CompletionResult]::new('--admin', '--admin', [CompletionResultType]::ParameterName, 'Serve the admin API (docs/ADMIN.md: every run''s scenarios, reset, clock, world, calls and grade over HTTP) on this address of its own, `HOST:PORT` or a port; never on the MCP port. Anywhere but loopback it needs a token (--admin-token-file or CAREEM_MCP_ADMIN_TOKEN)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--template-times', '--template-times', [CompletionResultType]::ParameterName, 'Turn RFC 3339 times within two days of now into `{{now±…}}` placeholders')
            [CompletionResult]::new('--stdio', '--stdio', [CompletionResultType]::ParameterName, 'Speak MCP on stdin/stdout instead of HTTP (logs go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named')
            [CompletionResult]::new('--no-output-schema', '--no-output-schema', [CompletionResultType]::ParameterName, 'Leave `outputSchema` out of the tool list')
            [CompletionResult]::new('--no-meta', '--no-meta', [CompletionResultType]::ParameterName, 'Leave `_meta` and the widget resource out')
            [CompletionResult]::new('--no-journal', '--no-journal', [CompletionResultType]::ParameterName, 'Keep no journal')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'careem-mcp;calls' {
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Only calls of this tool')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only calls of this session')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Only the last N calls')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the entries as JSON (an array)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing new calls as they come')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'Empty the journal')
            [CompletionResult]::new('--all-runs', '--all-runs', [CompletionResultType]::ParameterName, 'Every run''s journal (the default run''s too), with a run column')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;dashboard' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The address to listen on. Anything but loopback lets others steer your scenarios')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port to listen on; 0 picks a free one')
            [CompletionResult]::new('--allowed-host', '--allowed-host', [CompletionResultType]::ParameterName, 'Also accept this Host, as `serve --allowed-host`; loopback names are always accepted')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Keep at most this many connections open, as `serve --max-connections`')
            [CompletionResult]::new('--header-timeout', '--header-timeout', [CompletionResultType]::ParameterName, 'Close a connection that has sent no complete request headers for this many seconds')
            [CompletionResult]::new('--body-timeout', '--body-timeout', [CompletionResultType]::ParameterName, 'Answer 408 to a request whose body is still incomplete after this many seconds')
            [CompletionResult]::new('--max-streams', '--max-streams', [CompletionResultType]::ParameterName, 'Keep at most this many live views (browser tabs following the calls) open; one more is refused with 503')
            [CompletionResult]::new('--expected', '--expected', [CompletionResultType]::ParameterName, 'A folder of expected files (docs/GRADING.md), one per run: `NAME.json` for the run NAME, `default.json` for the default run. The Live calls view then shows the run''s verdict, graded again as its calls come')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--open', '--open', [CompletionResultType]::ParameterName, 'Open the dashboard in the default browser')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;clock' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)')
            [CompletionResult]::new('advance', 'advance', [CompletionResultType]::ParameterValue, 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)')
            [CompletionResult]::new('real', 'real', [CompletionResultType]::ParameterValue, 'Back to the real time')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'careem-mcp;clock;set' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;clock;advance' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;clock;real' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;clock;help' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)')
            [CompletionResult]::new('advance', 'advance', [CompletionResultType]::ParameterValue, 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)')
            [CompletionResult]::new('real', 'real', [CompletionResultType]::ParameterValue, 'Back to the real time')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'careem-mcp;clock;help;set' {
            break
        }
        'careem-mcp;clock;help;advance' {
            break
        }
        'careem-mcp;clock;help;real' {
            break
        }
        'careem-mcp;clock;help;help' {
            break
        }
        'careem-mcp;world' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object for machines')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;grade' {
            [CompletionResult]::new('--runs', '--runs', [CompletionResultType]::ParameterName, 'Grade every run whose name matches this pattern (`*` stands for any characters), e.g. ''task7-try*'', and report the pass rate and pass^k')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How verdicts are printed: `human`, `json` or `junit` (JUnit XML that CI systems read)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'careem-mcp;export' {
            [CompletionResult]::new('--spec', '--spec', [CompletionResultType]::ParameterName, 'The folder to write `tools/` into: a new or empty folder, outside the project. Serve it with any SPEC server, or `careem-mcp --project DIR serve`')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write into a folder that is not empty: its `tools/` is replaced whole, anything else in it is left as it is')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'careem-mcp;tasks' {
            [CompletionResult]::new('--tasks-dir', '--tasks-dir', [CompletionResultType]::ParameterName, 'The folder of task files, one `<id>.json` each [default: <project>/tasks]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human`, or `json` for harnesses')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every task: its id, difficulty, tags and title')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One task: the request, the start, and the expected file `grade` reads')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Make a run (the task''s id, or --run) into the task''s start: forget what the run held, force its scenarios, seed its world at its clock; print the run''s MCP path and the request')
            [CompletionResult]::new('grade', 'grade', [CompletionResultType]::ParameterValue, 'Grade a run (the task''s id, or --run) against the task''s expected actions and checks, as `grade` does. Exit 0 passed, 1 failed, 2 could not grade')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'careem-mcp;tasks;list' {
            [CompletionResult]::new('--tasks-dir', '--tasks-dir', [CompletionResultType]::ParameterName, 'The folder of task files, one `<id>.json` each [default: <project>/tasks]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human`, or `json` for harnesses')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;tasks;show' {
            [CompletionResult]::new('--tasks-dir', '--tasks-dir', [CompletionResultType]::ParameterName, 'The folder of task files, one `<id>.json` each [default: <project>/tasks]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human`, or `json` for harnesses')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;tasks;start' {
            [CompletionResult]::new('--tasks-dir', '--tasks-dir', [CompletionResultType]::ParameterName, 'The folder of task files, one `<id>.json` each [default: <project>/tasks]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human`, or `json` for harnesses')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;tasks;grade' {
            [CompletionResult]::new('--tasks-dir', '--tasks-dir', [CompletionResultType]::ParameterName, 'The folder of task files, one `<id>.json` each [default: <project>/tasks]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human`, or `json` for harnesses')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;tasks;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every task: its id, difficulty, tags and title')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One task: the request, the start, and the expected file `grade` reads')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Make a run (the task''s id, or --run) into the task''s start: forget what the run held, force its scenarios, seed its world at its clock; print the run''s MCP path and the request')
            [CompletionResult]::new('grade', 'grade', [CompletionResultType]::ParameterValue, 'Grade a run (the task''s id, or --run) against the task''s expected actions and checks, as `grade` does. Exit 0 passed, 1 failed, 2 could not grade')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'careem-mcp;tasks;help;list' {
            break
        }
        'careem-mcp;tasks;help;show' {
            break
        }
        'careem-mcp;tasks;help;start' {
            break
        }
        'careem-mcp;tasks;help;grade' {
            break
        }
        'careem-mcp;tasks;help;help' {
            break
        }
        'careem-mcp;completions' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder')
            [CompletionResult]::new('--overrides', '--overrides', [CompletionResultType]::ParameterName, 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]')
            [CompletionResult]::new('--journal-max-size', '--journal-max-size', [CompletionResultType]::ParameterName, 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)')
            [CompletionResult]::new('--clock', '--clock', [CompletionResultType]::ParameterName, 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Make `uuid` and `rand:` placeholders deterministic with this seed')
            [CompletionResult]::new('--jq-deadline', '--jq-deadline', [CompletionResultType]::ParameterName, 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep')
            [CompletionResult]::new('--admin-token-file', '--admin-token-file', [CompletionResultType]::ParameterName, 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s')
            [CompletionResult]::new('--stateful', '--stateful', [CompletionResultType]::ParameterName, 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'careem-mcp;help' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio')
            [CompletionResult]::new('scenario', 'scenario', [CompletionResultType]::ParameterValue, 'Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario <tool>` alone clears it')
            [CompletionResult]::new('scenarios', 'scenarios', [CompletionResultType]::ParameterValue, 'List scenarios: kind, match rule, which are forced now, and every entry of the overrides file (sequences, delays, faults) with its problems')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Clear every entry of the overrides file: forced scenarios, sequences, delays, faults')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check every tool file and docs/SOURCE.md; print each problem with its place')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one tool call in process, exactly as the server would, and print the result')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection')
            [CompletionResult]::new('drift', 'drift', [CompletionResultType]::ParameterValue, 'Compare a live MCP server (production) with the project: initialize, every tool, the widget resource; `--write` brings the tool files in line')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Serve as `serve` does, answering each tool call by forwarding it to a live server and writing each new answer as a scenario')
            [CompletionResult]::new('calls', 'calls', [CompletionResultType]::ParameterValue, 'Show the call journal: what the agent actually called')
            [CompletionResult]::new('dashboard', 'dashboard', [CompletionResultType]::ParameterValue, 'A browser page beside any running `serve`: live calls, scenarios, try a call, tools')
            [CompletionResult]::new('clock', 'clock', [CompletionResultType]::ParameterValue, 'Show or set the run''s clock, which every process serving the run reads on its next call: order and ride lifecycles, slots and opening hours follow it')
            [CompletionResult]::new('world', 'world', [CompletionResultType]::ParameterValue, 'Show the run''s world: the basket, the orders and rides with their status now, and the clock (what `serve --stateful` remembers)')
            [CompletionResult]::new('grade', 'grade', [CompletionResultType]::ParameterValue, 'Grade an agent''s run by its end state: replay the expected actions on a fresh copy of the run''s world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2 when grading could not run')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the tools as SPEC''s format alone reads them: every computed scenario rendered for its sample arguments on the seed world, its times as `{{now±…}}` placeholders')
            [CompletionResult]::new('tasks', 'tasks', [CompletionResultType]::ParameterValue, 'The task suite an agent is scored on (docs/TASKS.md): list the tasks, show one, make a run into a task''s start, grade the run')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'careem-mcp;help;serve' {
            break
        }
        'careem-mcp;help;scenario' {
            break
        }
        'careem-mcp;help;scenarios' {
            break
        }
        'careem-mcp;help;reset' {
            break
        }
        'careem-mcp;help;lint' {
            break
        }
        'careem-mcp;help;call' {
            break
        }
        'careem-mcp;help;verify' {
            break
        }
        'careem-mcp;help;drift' {
            break
        }
        'careem-mcp;help;record' {
            break
        }
        'careem-mcp;help;calls' {
            break
        }
        'careem-mcp;help;dashboard' {
            break
        }
        'careem-mcp;help;clock' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)')
            [CompletionResult]::new('advance', 'advance', [CompletionResultType]::ParameterValue, 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)')
            [CompletionResult]::new('real', 'real', [CompletionResultType]::ParameterValue, 'Back to the real time')
            break
        }
        'careem-mcp;help;clock;set' {
            break
        }
        'careem-mcp;help;clock;advance' {
            break
        }
        'careem-mcp;help;clock;real' {
            break
        }
        'careem-mcp;help;world' {
            break
        }
        'careem-mcp;help;grade' {
            break
        }
        'careem-mcp;help;export' {
            break
        }
        'careem-mcp;help;tasks' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every task: its id, difficulty, tags and title')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One task: the request, the start, and the expected file `grade` reads')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Make a run (the task''s id, or --run) into the task''s start: forget what the run held, force its scenarios, seed its world at its clock; print the run''s MCP path and the request')
            [CompletionResult]::new('grade', 'grade', [CompletionResultType]::ParameterValue, 'Grade a run (the task''s id, or --run) against the task''s expected actions and checks, as `grade` does. Exit 0 passed, 1 failed, 2 could not grade')
            break
        }
        'careem-mcp;help;tasks;list' {
            break
        }
        'careem-mcp;help;tasks;show' {
            break
        }
        'careem-mcp;help;tasks;start' {
            break
        }
        'careem-mcp;help;tasks;grade' {
            break
        }
        'careem-mcp;help;completions' {
            break
        }
        'careem-mcp;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
