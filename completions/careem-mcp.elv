
use builtin;
use str;

set edit:completion:arg-completer[careem-mcp] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'careem-mcp'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'careem-mcp'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand serve 'Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio'
            cand scenario 'Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario <tool>` alone clears it'
            cand scenarios 'List scenarios: kind, match rule, which are forced now, and every entry of the overrides file (sequences, delays, faults) with its problems'
            cand reset 'Clear every entry of the overrides file: forced scenarios, sequences, delays, faults'
            cand lint 'Check every tool file and docs/SOURCE.md; print each problem with its place'
            cand call 'Run one tool call in process, exactly as the server would, and print the result'
            cand verify 'Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection'
            cand drift 'Compare a live MCP server (production) with the project: initialize, every tool, the widget resource; `--write` brings the tool files in line'
            cand record 'Serve as `serve` does, answering each tool call by forwarding it to a live server and writing each new answer as a scenario'
            cand calls 'Show the call journal: what the agent actually called'
            cand dashboard 'A browser page beside any running `serve`: live calls, scenarios, try a call, tools'
            cand clock 'Show or set the run''s clock, which every process serving the run reads on its next call: order and ride lifecycles, slots and opening hours follow it'
            cand world 'Show the run''s world: the basket, the orders and rides with their status now, and the clock (what `serve --stateful` remembers)'
            cand grade 'Grade an agent''s run by its end state: replay the expected actions on a fresh copy of the run''s world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2 when grading could not run'
            cand export 'Write the tools as SPEC''s format alone reads them: every computed scenario rendered for its sample arguments on the seed world, its times as `{{now±…}}` placeholders'
            cand tasks 'The task suite an agent is scored on (docs/TASKS.md): list the tasks, show one, make a run into a task''s start, grade the run'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'careem-mcp;serve'= {
            cand --wire 'The Go SDK release whose wire to speak: production''s as last recorded (v1.6.1), v1.7.0, or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production speaks'
            cand --host 'The address to listen on. Anything but loopback exposes the server to the network'
            cand --port 'The port to listen on; 0 picks a free one'
            cand --server-name '`serverInfo.name` in the initialize result'
            cand --server-version '`serverInfo.version` in the initialize result'
            cand --widget-domain 'Where the widget bundle is loaded from'
            cand --allowed-host 'Also accept this Host (e.g. a tunnel''s, for ChatGPT); loopback names are always accepted'
            cand --session-idle 'End HTTP sessions idle for this many seconds'
            cand --max-sessions 'Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a new session ends the one idle longest, whose next request gets 404 `session not found`'
            cand --max-connections 'Keep at most this many HTTP connections open; at the cap a new one displaces the one idle longest'
            cand --header-timeout 'Close a connection that has sent no complete request headers for this many seconds (idle kept-alive connections included)'
            cand --body-timeout 'Answer 408 to a request whose body is still incomplete after this many seconds'
            cand --max-runs 'Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that made a call together. A new run past it gets 404 until one is removed (`reset --run NAME --remove`) or the sessions of a run without a folder end'
            cand --admin 'Serve the admin API (docs/ADMIN.md: every run''s scenarios, reset, clock, world, calls and grade over HTTP) on this address of its own, `HOST:PORT` or a port; never on the MCP port. Anywhere but loopback it needs a token (--admin-token-file or CAREEM_MCP_ADMIN_TOKEN)'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stdio 'Speak MCP on stdin/stdout instead of HTTP (logs go to stderr)'
            cand -v 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named'
            cand --verbose 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named'
            cand --no-output-schema 'Leave `outputSchema` out of the tool list'
            cand --no-meta 'Leave `_meta` and the widget resource out'
            cand --no-journal 'Keep no journal'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;scenario'= {
            cand --delay 'Wait this long before answering: `2s`, `800ms`, or a range drawn uniformly, `200ms..1500ms`'
            cand --fault 'Fail every call (or one in `--rate`) this way instead of answering'
            cand --rate 'The probability, 0 to 1, that `--fault` fires on a call (the same draws under --seed)'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'careem-mcp;scenarios'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;reset'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --remove 'With --run: delete the run''s folder, its overrides file and journal with it'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;lint'= {
            cand --format 'How problems are shown: `full` quotes the offending lines (the default on a terminal), `short` is one `path:line: scenario "name": message` line each (the default in a pipe), `json` is one array for machines'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --write-source 'Rewrite the table in docs/SOURCE.md from the tool files'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;call'= {
            cand --scenario 'Force this scenario for this call only'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --compact 'Print compact JSON even on a terminal'
            cand --no-journal 'Keep no journal'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;verify'= {
            cand --transport 'Which transport to run the suite over'
            cand --url 'Check a server that is already running (its /mcp URL) instead of starting one. Tests 9 and 11 force scenarios, so they run only when `--overrides` names that server''s file'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --json 'Print the results as JSON'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;drift'= {
            cand --url 'The live server to compare with: its Streamable HTTP URL, or its SSE URL with `--transport sse`'
            cand --header 'A header every request carries, `''Name: value''` (repeatable), e.g. production''s `Authorization`. Its value is never printed. The variable holds one a line and is read when no --header is given; it and --header-file keep a token off the command line, which other users can read'
            cand --header-file 'Read more headers from this file, `Name: value` one a line (blank lines and lines starting with `#` are skipped)'
            cand --timeout 'How long connecting, and each request after it (for `record`, each forwarded call), may take'
            cand --max-event-size 'The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB, GiB); a larger one ends the stream or fails the request instead of filling memory'
            cand --transport 'How to reach the server'
            cand --format 'How differences are shown'
            cand --max-pages 'Stop reading production after this many pages of one list'
            cand --max-bytes 'Stop reading production once everything listed and read passes this size as JSON (bytes, or with KiB, MiB, GiB)'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --write 'Rewrite the `## Definition` of every changed tool, create a file for every tool new in production; tools production no longer has are listed, never deleted'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'careem-mcp;record'= {
            cand --upstream 'The live server that answers: its Streamable HTTP URL, or its SSE URL with `--upstream-transport sse`'
            cand --header 'A header every request carries, `''Name: value''` (repeatable), e.g. production''s `Authorization`. Its value is never printed. The variable holds one a line and is read when no --header is given; it and --header-file keep a token off the command line, which other users can read'
            cand --header-file 'Read more headers from this file, `Name: value` one a line (blank lines and lines starting with `#` are skipped)'
            cand --timeout 'How long connecting, and each request after it (for `record`, each forwarded call), may take'
            cand --max-event-size 'The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB, GiB); a larger one ends the stream or fails the request instead of filling memory'
            cand --upstream-transport 'How to reach the upstream'
            cand --into 'Write scenarios into copies of the tool files under this folder, kept apart for review, instead of into the project''s tool files'
            cand --redact 'Mask the values of these fields (any case) in recorded answers: phone numbers, e-mail addresses, tokens, names'
            cand --wire 'The Go SDK release whose wire to speak: production''s as last recorded (v1.6.1), v1.7.0, or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production speaks'
            cand --host 'The address to listen on. Anything but loopback exposes the server to the network'
            cand --port 'The port to listen on; 0 picks a free one'
            cand --server-name '`serverInfo.name` in the initialize result'
            cand --server-version '`serverInfo.version` in the initialize result'
            cand --widget-domain 'Where the widget bundle is loaded from'
            cand --allowed-host 'Also accept this Host (e.g. a tunnel''s, for ChatGPT); loopback names are always accepted'
            cand --session-idle 'End HTTP sessions idle for this many seconds'
            cand --max-sessions 'Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a new session ends the one idle longest, whose next request gets 404 `session not found`'
            cand --max-connections 'Keep at most this many HTTP connections open; at the cap a new one displaces the one idle longest'
            cand --header-timeout 'Close a connection that has sent no complete request headers for this many seconds (idle kept-alive connections included)'
            cand --body-timeout 'Answer 408 to a request whose body is still incomplete after this many seconds'
            cand --max-runs 'Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that made a call together. A new run past it gets 404 until one is removed (`reset --run NAME --remove`) or the sessions of a run without a folder end'
            cand --admin 'Serve the admin API (docs/ADMIN.md: every run''s scenarios, reset, clock, world, calls and grade over HTTP) on this address of its own, `HOST:PORT` or a port; never on the MCP port. Anywhere but loopback it needs a token (--admin-token-file or CAREEM_MCP_ADMIN_TOKEN)'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --template-times 'Turn RFC 3339 times within two days of now into `{{now±…}}` placeholders'
            cand --stdio 'Speak MCP on stdin/stdout instead of HTTP (logs go to stderr)'
            cand -v 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named'
            cand --verbose 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named'
            cand --no-output-schema 'Leave `outputSchema` out of the tool list'
            cand --no-meta 'Leave `_meta` and the widget resource out'
            cand --no-journal 'Keep no journal'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'careem-mcp;calls'= {
            cand --tool 'Only calls of this tool'
            cand --session 'Only calls of this session'
            cand --last 'Only the last N calls'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --json 'Print the entries as JSON (an array)'
            cand --follow 'Keep printing new calls as they come'
            cand --clear 'Empty the journal'
            cand --all-runs 'Every run''s journal (the default run''s too), with a run column'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;dashboard'= {
            cand --host 'The address to listen on. Anything but loopback lets others steer your scenarios'
            cand --port 'The port to listen on; 0 picks a free one'
            cand --allowed-host 'Also accept this Host, as `serve --allowed-host`; loopback names are always accepted'
            cand --max-connections 'Keep at most this many connections open, as `serve --max-connections`'
            cand --header-timeout 'Close a connection that has sent no complete request headers for this many seconds'
            cand --body-timeout 'Answer 408 to a request whose body is still incomplete after this many seconds'
            cand --max-streams 'Keep at most this many live views (browser tabs following the calls) open; one more is refused with 503'
            cand --expected 'A folder of expected files (docs/GRADING.md), one per run: `NAME.json` for the run NAME, `default.json` for the default run. The Live calls view then shows the run''s verdict, graded again as its calls come'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --open 'Open the dashboard in the default browser'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;clock'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand set 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)'
            cand advance 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)'
            cand real 'Back to the real time'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'careem-mcp;clock;set'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;clock;advance'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;clock;real'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;clock;help'= {
            cand set 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)'
            cand advance 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)'
            cand real 'Back to the real time'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'careem-mcp;clock;help;set'= {
        }
        &'careem-mcp;clock;help;advance'= {
        }
        &'careem-mcp;clock;help;real'= {
        }
        &'careem-mcp;clock;help;help'= {
        }
        &'careem-mcp;world'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --json 'One JSON object for machines'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;grade'= {
            cand --runs 'Grade every run whose name matches this pattern (`*` stands for any characters), e.g. ''task7-try*'', and report the pass rate and pass^k'
            cand --format 'How verdicts are printed: `human`, `json` or `junit` (JUnit XML that CI systems read)'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'careem-mcp;export'= {
            cand --spec 'The folder to write `tools/` into: a new or empty folder, outside the project. Serve it with any SPEC server, or `careem-mcp --project DIR serve`'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --force 'Write into a folder that is not empty: its `tools/` is replaced whole, anything else in it is left as it is'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'careem-mcp;tasks'= {
            cand --tasks-dir 'The folder of task files, one `<id>.json` each [default: <project>/tasks]'
            cand --format '`human`, or `json` for harnesses'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'Every task: its id, difficulty, tags and title'
            cand show 'One task: the request, the start, and the expected file `grade` reads'
            cand start 'Make a run (the task''s id, or --run) into the task''s start: forget what the run held, force its scenarios, seed its world at its clock; print the run''s MCP path and the request'
            cand grade 'Grade a run (the task''s id, or --run) against the task''s expected actions and checks, as `grade` does. Exit 0 passed, 1 failed, 2 could not grade'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'careem-mcp;tasks;list'= {
            cand --tasks-dir 'The folder of task files, one `<id>.json` each [default: <project>/tasks]'
            cand --format '`human`, or `json` for harnesses'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;tasks;show'= {
            cand --tasks-dir 'The folder of task files, one `<id>.json` each [default: <project>/tasks]'
            cand --format '`human`, or `json` for harnesses'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;tasks;start'= {
            cand --tasks-dir 'The folder of task files, one `<id>.json` each [default: <project>/tasks]'
            cand --format '`human`, or `json` for harnesses'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;tasks;grade'= {
            cand --tasks-dir 'The folder of task files, one `<id>.json` each [default: <project>/tasks]'
            cand --format '`human`, or `json` for harnesses'
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;tasks;help'= {
            cand list 'Every task: its id, difficulty, tags and title'
            cand show 'One task: the request, the start, and the expected file `grade` reads'
            cand start 'Make a run (the task''s id, or --run) into the task''s start: forget what the run held, force its scenarios, seed its world at its clock; print the run''s MCP path and the request'
            cand grade 'Grade a run (the task''s id, or --run) against the task''s expected actions and checks, as `grade` does. Exit 0 passed, 1 failed, 2 could not grade'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'careem-mcp;tasks;help;list'= {
        }
        &'careem-mcp;tasks;help;show'= {
        }
        &'careem-mcp;tasks;help;start'= {
        }
        &'careem-mcp;tasks;help;grade'= {
        }
        &'careem-mcp;tasks;help;help'= {
        }
        &'careem-mcp;completions'= {
            cand --project 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path'
            cand --tools 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder'
            cand --overrides 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]'
            cand --journal 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]'
            cand --run 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project''s own .run/overrides.json and .run/calls.jsonl]'
            cand --journal-max-size 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)'
            cand --clock 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses'
            cand --seed 'Make `uuid` and `rand:` placeholders deterministic with this seed'
            cand --jq-deadline 'Stop a call''s jq programs (a tool file''s `jq when`, `jq update`, `jq response`) after this many seconds: the call answers `internal server error` and the log says which program. A program also stops after 500,000 steps, or when it recurses too deep'
            cand --admin-token-file 'A file holding the admin API''s bearer token (its first line): what `serve --admin` requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN''s value'
            cand --server 'Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md) instead of the project''s files: `scenario`, `scenarios`, `reset`, `clock`, `world`, `calls` and `grade`, with the same output and exit codes. The token is --admin-token-file''s or CAREEM_MCP_ADMIN_TOKEN''s'
            cand --stateful 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC''s static scenarios do'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'careem-mcp;help'= {
            cand serve 'Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio'
            cand scenario 'Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario <tool>` alone clears it'
            cand scenarios 'List scenarios: kind, match rule, which are forced now, and every entry of the overrides file (sequences, delays, faults) with its problems'
            cand reset 'Clear every entry of the overrides file: forced scenarios, sequences, delays, faults'
            cand lint 'Check every tool file and docs/SOURCE.md; print each problem with its place'
            cand call 'Run one tool call in process, exactly as the server would, and print the result'
            cand verify 'Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection'
            cand drift 'Compare a live MCP server (production) with the project: initialize, every tool, the widget resource; `--write` brings the tool files in line'
            cand record 'Serve as `serve` does, answering each tool call by forwarding it to a live server and writing each new answer as a scenario'
            cand calls 'Show the call journal: what the agent actually called'
            cand dashboard 'A browser page beside any running `serve`: live calls, scenarios, try a call, tools'
            cand clock 'Show or set the run''s clock, which every process serving the run reads on its next call: order and ride lifecycles, slots and opening hours follow it'
            cand world 'Show the run''s world: the basket, the orders and rides with their status now, and the clock (what `serve --stateful` remembers)'
            cand grade 'Grade an agent''s run by its end state: replay the expected actions on a fresh copy of the run''s world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2 when grading could not run'
            cand export 'Write the tools as SPEC''s format alone reads them: every computed scenario rendered for its sample arguments on the seed world, its times as `{{now±…}}` placeholders'
            cand tasks 'The task suite an agent is scored on (docs/TASKS.md): list the tasks, show one, make a run into a task''s start, grade the run'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'careem-mcp;help;serve'= {
        }
        &'careem-mcp;help;scenario'= {
        }
        &'careem-mcp;help;scenarios'= {
        }
        &'careem-mcp;help;reset'= {
        }
        &'careem-mcp;help;lint'= {
        }
        &'careem-mcp;help;call'= {
        }
        &'careem-mcp;help;verify'= {
        }
        &'careem-mcp;help;drift'= {
        }
        &'careem-mcp;help;record'= {
        }
        &'careem-mcp;help;calls'= {
        }
        &'careem-mcp;help;dashboard'= {
        }
        &'careem-mcp;help;clock'= {
            cand set 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)'
            cand advance 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)'
            cand real 'Back to the real time'
        }
        &'careem-mcp;help;clock;set'= {
        }
        &'careem-mcp;help;clock;advance'= {
        }
        &'careem-mcp;help;clock;real'= {
        }
        &'careem-mcp;help;world'= {
        }
        &'careem-mcp;help;grade'= {
        }
        &'careem-mcp;help;export'= {
        }
        &'careem-mcp;help;tasks'= {
            cand list 'Every task: its id, difficulty, tags and title'
            cand show 'One task: the request, the start, and the expected file `grade` reads'
            cand start 'Make a run (the task''s id, or --run) into the task''s start: forget what the run held, force its scenarios, seed its world at its clock; print the run''s MCP path and the request'
            cand grade 'Grade a run (the task''s id, or --run) against the task''s expected actions and checks, as `grade` does. Exit 0 passed, 1 failed, 2 could not grade'
        }
        &'careem-mcp;help;tasks;list'= {
        }
        &'careem-mcp;help;tasks;show'= {
        }
        &'careem-mcp;help;tasks;start'= {
        }
        &'careem-mcp;help;tasks;grade'= {
        }
        &'careem-mcp;help;completions'= {
        }
        &'careem-mcp;help;help'= {
        }
    ]
    $completions[$command]
}
