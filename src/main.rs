fn main() -> std::process::ExitCode {
    careem_mcp::cli::run()
}
