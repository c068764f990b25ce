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
        &mut std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout()),
        &mut std::io::stderr(),
    );
    ExitCode::from(status)
}
