use std::process::ExitCode;

fn main() -> ExitCode {
    iparams_lint::quiet_parser_panics();
    let env = iparams_lint::Environment::detect();
    let status = iparams_lint::run(
        std::env::args_os(),
        &env,
        // Not locked here: the language server reads standard input from a thread of its own.
        &mut std::io::stdin(),
        // Buffered: formats write many small pieces. Errors go out as they come.
        &mut std::io::BufWriter::with_capacity(64 * 1024, stdout_unbuffered()),
        &mut std::io::stderr(),
    );
    ExitCode::from(status)
}

/// Standard output without the line buffering of `std::io::stdout()` where the platform allows:
/// the output is gathered in blocks above it, and the line writer searched each block for its
/// last line break and copied what followed (1% of the instructions of a large file's run).
fn stdout_unbuffered() -> Box<dyn std::io::Write + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(descriptor) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(descriptor));
        }
    }
    Box::new(std::io::stdout())
}
