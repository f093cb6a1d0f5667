# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_careem_mcp_global_optspecs
    string join \n project= tools= overrides= journal= run= journal-max-size= clock= seed= stateful h/help V/version
end

function __fish_careem_mcp_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_careem_mcp_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_careem_mcp_using_subcommand
    set -l cmd (__fish_careem_mcp_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -s V -l version -d 'Print version'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "serve" -d 'Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "scenario" -d 'Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario <tool>` alone clears it'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "scenarios" -d 'List scenarios: kind, match rule, which are forced now, and every entry of the overrides file (sequences, delays, faults) with its problems'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "reset" -d 'Clear every entry of the overrides file: forced scenarios, sequences, delays, faults'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "lint" -d 'Check every tool file and docs/SOURCE.md; print each problem with its place'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "call" -d 'Run one tool call in process, exactly as the server would, and print the result'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "verify" -d 'Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "drift" -d 'Compare a live MCP server (production) with the project: initialize, every tool, the widget resource; `--write` brings the tool files in line'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "record" -d 'Serve as `serve` does, answering each tool call by forwarding it to a live server and writing each new answer as a scenario'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "calls" -d 'Show the call journal: what the agent actually called'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "dashboard" -d 'A browser page beside any running `serve`: live calls, scenarios, try a call, tools'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "clock" -d 'Show or set the run\'s clock, which every process serving the run reads on its next call: order and ride lifecycles, slots and opening hours follow it'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "world" -d 'Show the run\'s world: the basket, the orders and rides with their status now, and the clock (what `serve --stateful` remembers)'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "grade" -d 'Grade an agent\'s run by its end state: replay the expected actions on a fresh copy of the run\'s world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2 when grading could not run'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c careem-mcp -n "__fish_careem_mcp_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l wire -d 'The Go SDK release whose wire to speak: production\'s as last recorded (v1.6.1), v1.7.0, or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production speaks' -r -f -a "go-sdk-1.6.1\t''
go-sdk-1.7.0\t''
go-sdk-1.7.0-stateless\t''"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l host -d 'The address to listen on. Anything but loopback exposes the server to the network' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l port -d 'The port to listen on; 0 picks a free one' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l server-name -d '`serverInfo.name` in the initialize result' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l server-version -d '`serverInfo.version` in the initialize result' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l widget-domain -d 'Where the widget bundle is loaded from' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l allowed-host -d 'Also accept this Host (e.g. a tunnel\'s, for ChatGPT); loopback names are always accepted' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l session-idle -d 'End HTTP sessions idle for this many seconds' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l max-sessions -d 'Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a new session ends the one idle longest, whose next request gets 404 `session not found`' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l max-connections -d 'Keep at most this many HTTP connections open; at the cap a new one displaces the one idle longest' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l header-timeout -d 'Close a connection that has sent no complete request headers for this many seconds (idle kept-alive connections included)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l body-timeout -d 'Answer 408 to a request whose body is still incomplete after this many seconds' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l max-runs -d 'Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that made a call together. A new run past it gets 404 until one is removed (`reset --run NAME --remove`) or the sessions of a run without a folder end' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l stdio -d 'Speak MCP on stdin/stdout instead of HTTP (logs go to stderr)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -s v -l verbose -d 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l no-output-schema -d 'Leave `outputSchema` out of the tool list'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l no-meta -d 'Leave `_meta` and the widget resource out'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l no-journal -d 'Keep no journal'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand serve" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l delay -d 'Wait this long before answering: `2s`, `800ms`, or a range drawn uniformly, `200ms..1500ms`' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l fault -d 'Fail every call (or one in `--rate`) this way instead of answering' -r -f -a "http-502\t''
http-503\t''
http-504\t''
drop\t''
hang\t''
session-expired\t''
internal-error\t''"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l rate -d 'The probability, 0 to 1, that `--fault` fires on a call (the same draws under --seed)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenario" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand scenarios" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l remove -d 'With --run: delete the run\'s folder, its overrides file and journal with it'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand reset" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l format -d 'How problems are shown: `full` quotes the offending lines (the default on a terminal), `short` is one `path:line: scenario "name": message` line each (the default in a pipe), `json` is one array for machines' -r -f -a "full\t''
short\t''
json\t''"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l write-source -d 'Rewrite the table in docs/SOURCE.md from the tool files'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand lint" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l scenario -d 'Force this scenario for this call only' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l compact -d 'Print compact JSON even on a terminal'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l no-journal -d 'Keep no journal'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand call" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l transport -d 'Which transport to run the suite over' -r -f -a "http\t''
sse\t''
stdio\t''
all\t''"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l url -d 'Check a server that is already running (its /mcp URL) instead of starting one. Tests 9 and 11 force scenarios, so they run only when `--overrides` names that server\'s file' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l json -d 'Print the results as JSON'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand verify" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l url -d 'The live server to compare with: its Streamable HTTP URL, or its SSE URL with `--transport sse`' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l header -d 'A header every request carries, `\'Name: value\'` (repeatable), e.g. production\'s `Authorization`. Its value is never printed. The variable holds one a line and is read when no --header is given; it and --header-file keep a token off the command line, which other users can read' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l header-file -d 'Read more headers from this file, `Name: value` one a line (blank lines and lines starting with `#` are skipped)' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l timeout -d 'How long connecting, and each request after it (for `record`, each forwarded call), may take' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l max-event-size -d 'The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB, GiB); a larger one ends the stream or fails the request instead of filling memory' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l transport -d 'How to reach the server' -r -f -a "http\t'Streamable HTTP; the URL ends in /mcp'
sse\t'Legacy HTTP+SSE; the URL is the event stream\'s, ending in /sse'"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l format -d 'How differences are shown' -r -f -a "text\t'Grouped by tool, each place with both values'
json\t'One JSON document with the same content'"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l max-pages -d 'Stop reading production after this many pages of one list' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l max-bytes -d 'Stop reading production once everything listed and read passes this size as JSON (bytes, or with KiB, MiB, GiB)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l write -d 'Rewrite the `## Definition` of every changed tool, create a file for every tool new in production; tools production no longer has are listed, never deleted'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand drift" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l upstream -d 'The live server that answers: its Streamable HTTP URL, or its SSE URL with `--upstream-transport sse`' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l header -d 'A header every request carries, `\'Name: value\'` (repeatable), e.g. production\'s `Authorization`. Its value is never printed. The variable holds one a line and is read when no --header is given; it and --header-file keep a token off the command line, which other users can read' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l header-file -d 'Read more headers from this file, `Name: value` one a line (blank lines and lines starting with `#` are skipped)' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l timeout -d 'How long connecting, and each request after it (for `record`, each forwarded call), may take' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l max-event-size -d 'The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB, GiB); a larger one ends the stream or fails the request instead of filling memory' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l upstream-transport -d 'How to reach the upstream' -r -f -a "http\t'Streamable HTTP; the URL ends in /mcp'
sse\t'Legacy HTTP+SSE; the URL is the event stream\'s, ending in /sse'"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l into -d 'Write scenarios into copies of the tool files under this folder, kept apart for review, instead of into the project\'s tool files' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l redact -d 'Mask the values of these fields (any case) in recorded answers: phone numbers, e-mail addresses, tokens, names' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l wire -d 'The Go SDK release whose wire to speak: production\'s as last recorded (v1.6.1), v1.7.0, or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production speaks' -r -f -a "go-sdk-1.6.1\t''
go-sdk-1.7.0\t''
go-sdk-1.7.0-stateless\t''"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l host -d 'The address to listen on. Anything but loopback exposes the server to the network' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l port -d 'The port to listen on; 0 picks a free one' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l server-name -d '`serverInfo.name` in the initialize result' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l server-version -d '`serverInfo.version` in the initialize result' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l widget-domain -d 'Where the widget bundle is loaded from' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l allowed-host -d 'Also accept this Host (e.g. a tunnel\'s, for ChatGPT); loopback names are always accepted' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l session-idle -d 'End HTTP sessions idle for this many seconds' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l max-sessions -d 'Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a new session ends the one idle longest, whose next request gets 404 `session not found`' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l max-connections -d 'Keep at most this many HTTP connections open; at the cap a new one displaces the one idle longest' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l header-timeout -d 'Close a connection that has sent no complete request headers for this many seconds (idle kept-alive connections included)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l body-timeout -d 'Answer 408 to a request whose body is still incomplete after this many seconds' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l max-runs -d 'Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that made a call together. A new run past it gets 404 until one is removed (`reset --run NAME --remove`) or the sessions of a run without a folder end' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l template-times -d 'Turn RFC 3339 times within two days of now into `{{now±…}}` placeholders'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l stdio -d 'Speak MCP on stdin/stdout instead of HTTP (logs go to stderr)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -s v -l verbose -d 'Log every refused HTTP request on stderr: its method, path, status, the reason and the session it named'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l no-output-schema -d 'Leave `outputSchema` out of the tool list'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l no-meta -d 'Leave `_meta` and the widget resource out'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l no-journal -d 'Keep no journal'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand record" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l tool -d 'Only calls of this tool' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l session -d 'Only calls of this session' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l last -d 'Only the last N calls' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l json -d 'Print the entries as JSON (an array)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l follow -d 'Keep printing new calls as they come'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l clear -d 'Empty the journal'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l all-runs -d 'Every run\'s journal (the default run\'s too), with a run column'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand calls" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l host -d 'The address to listen on. Anything but loopback lets others steer your scenarios' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l port -d 'The port to listen on; 0 picks a free one' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l allowed-host -d 'Also accept this Host, as `serve --allowed-host`; loopback names are always accepted' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l max-connections -d 'Keep at most this many connections open, as `serve --max-connections`' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l header-timeout -d 'Close a connection that has sent no complete request headers for this many seconds' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l body-timeout -d 'Answer 408 to a request whose body is still incomplete after this many seconds' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l max-streams -d 'Keep at most this many live views (browser tabs following the calls) open; one more is refused with 503' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l expected -d 'A folder of expected files (docs/GRADING.md), one per run: `NAME.json` for the run NAME, `default.json` for the default run. The Live calls view then shows the run\'s verdict, graded again as its calls come' -r -f -a "(__fish_complete_directories)"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l open -d 'Open the dashboard in the default browser'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand dashboard" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -f -a "set" -d 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -f -a "advance" -d 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -f -a "real" -d 'Back to the real time'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and not __fish_seen_subcommand_from set advance real help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from advance" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from real" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from help" -f -a "set" -d 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from help" -f -a "advance" -d 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from help" -f -a "real" -d 'Back to the real time'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand clock; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l json -d 'One JSON object for machines'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand world" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l runs -d 'Grade every run whose name matches this pattern (`*` stands for any characters), e.g. \'task7-try*\', and report the pass rate and pass^k' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l format -d 'How verdicts are printed: `human`, `json` or `junit` (JUnit XML that CI systems read)' -r -f -a "human\t''
json\t''
junit\t''"
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand grade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l project -d 'The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP clients start servers in a folder of their own choosing: give them an absolute path' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l tools -d 'The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools]. Relative paths here and in --overrides and --journal are taken from the project folder' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l overrides -d 'The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp scenario` writes it), read on every call [default: <project>/.run/overrides.json]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l journal -d 'The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl]' -r -F
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l run -d 'The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`, which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z, 0-9, `-` and `_` [default: the project\'s own .run/overrides.json and .run/calls.jsonl]' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l journal-max-size -d 'Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping one rotated file beside it (`calls.jsonl.1`)' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l clock -d 'Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l seed -d 'Make `uuid` and `rand:` placeholders deterministic with this seed' -r
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -l stateful -d 'Make the world remember: what an agent does (a basket, an order, a ride) stays done for its run, shared by every process serving the run, until `careem-mcp reset`. Without it every call answers from the seed world, as SPEC\'s static scenarios do'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand completions" -s h -l help -d 'Print help'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "serve" -d 'Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "scenario" -d 'Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario <tool>` alone clears it'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "scenarios" -d 'List scenarios: kind, match rule, which are forced now, and every entry of the overrides file (sequences, delays, faults) with its problems'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "reset" -d 'Clear every entry of the overrides file: forced scenarios, sequences, delays, faults'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "lint" -d 'Check every tool file and docs/SOURCE.md; print each problem with its place'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "call" -d 'Run one tool call in process, exactly as the server would, and print the result'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "verify" -d 'Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "drift" -d 'Compare a live MCP server (production) with the project: initialize, every tool, the widget resource; `--write` brings the tool files in line'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "record" -d 'Serve as `serve` does, answering each tool call by forwarding it to a live server and writing each new answer as a scenario'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "calls" -d 'Show the call journal: what the agent actually called'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "dashboard" -d 'A browser page beside any running `serve`: live calls, scenarios, try a call, tools'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "clock" -d 'Show or set the run\'s clock, which every process serving the run reads on its next call: order and ride lifecycles, slots and opening hours follow it'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "world" -d 'Show the run\'s world: the basket, the orders and rides with their status now, and the clock (what `serve --stateful` remembers)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "grade" -d 'Grade an agent\'s run by its end state: replay the expected actions on a fresh copy of the run\'s world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2 when grading could not run'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and not __fish_seen_subcommand_from serve scenario scenarios reset lint call verify drift record calls dashboard clock world grade completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and __fish_seen_subcommand_from clock" -f -a "set" -d 'Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and __fish_seen_subcommand_from clock" -f -a "advance" -d 'Move the clock forward: a frozen clock by the duration, a running one ahead of the real time by it (units d, h, m, s: 90m, 1h30m, 2d)'
complete -c careem-mcp -n "__fish_careem_mcp_using_subcommand help; and __fish_seen_subcommand_from clock" -f -a "real" -d 'Back to the real time'
