use std::process::ExitCode;

fn main() -> ExitCode {
    let env = iparams_lint::Environment::detect();
    let status = iparams_lint::run(
        std::env::args_os(),
        &env,
        &mut std::io::stdin().lock(),
        // Buffered: formats write many small pieces. Errors go out as they come.
        &mut std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout()),
        &mut std::io::stderr(),
    );
    ExitCode::from(status)
}
