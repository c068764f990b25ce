use std::process::ExitCode;

fn main() -> ExitCode {
    let env = iparams_lint::Environment::detect();
    let status = iparams_lint::run(
        std::env::args_os(),
        &env,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    ExitCode::from(status)
}
