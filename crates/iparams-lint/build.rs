//! Links the functions a check runs next to each other, in the order of `hot-functions.txt`.
//!
//! Linux maps 64 KB of an executable around each page of it that runs (fault-around), from the
//! page cache. The functions a check runs, under two megabytes, were spread over the ten of
//! the executable, so a check of large.json mapped 5 to 6 MB of it: a fifth of its peak memory,
//! more or less from build to build as the functions moved. Next to each other, 2.5 MB.
//!
//! The names are those of this target's release build (crates/iparams-bench/hot-functions.sh
//! writes them); names a build does not have are passed over, so a stale list costs memory,
//! never a build. Only rust-lld reads such a list: it is given where rustc links with its own
//! rust-lld and no other linker is configured, and nothing is added anywhere else.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    // A change of linker or of flags makes cargo run this script anew (another unit); only the
    // list needs watching.
    println!("cargo:rerun-if-changed=hot-functions.txt");
    let target = env::var("TARGET").unwrap_or_default();
    let rustflags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let other_linker = env::var_os("RUSTC_LINKER").is_some()
        || rustflags.contains("linker")
        || rustflags.contains("fuse-ld");
    if target != "x86_64-unknown-linux-gnu" || other_linker || !has_rust_lld(&target) {
        return;
    }
    let list = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("hot-functions.txt");
    println!(
        "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        list.display()
    );
    println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
}

/// Whether rustc's sysroot has the rust-lld it links this target with by default (since Rust
/// 1.90, from rustup); a toolchain built without it links with the system's linker.
fn has_rust_lld(target: &str) -> bool {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(output) = Command::new(rustc).args(["--print", "sysroot"]).output() else {
        return false;
    };
    let sysroot = String::from_utf8_lossy(&output.stdout);
    Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(target)
        .join("bin/gcc-ld/ld.lld")
        .exists()
}
