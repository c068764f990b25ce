//! A language-server session in process (an in-memory connection): documents of an app opened,
//! edited and closed, and requests at positions, all from the input.
#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use iparams_fuzz::invariants;
use libfuzzer_sys::fuzz_target;

static APP: LazyLock<PathBuf> = LazyLock::new(invariants::lsp_app_root);

fuzz_target!(
    init: iparams_lint::quiet_parser_panics(),
    |data: &[u8]| invariants::lsp_session_is_sound(&APP, data)
);
