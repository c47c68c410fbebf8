//! Build script: hands the harness (src/harness.rs) what it reports of itself — the compiler's
//! version (`$RUSTC --version`) as WIRECOST_RUSTC_VERSION and rmcp's locked version (Cargo.lock)
//! as WIRECOST_RMCP_VERSION — so neither is written by hand.

use std::{env, fs, process::Command};

fn main() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc).arg("--version").output().expect("rustc --version runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().nth(1).expect("rustc --version prints `rustc X.Y.Z ...`");
    println!("cargo:rustc-env=WIRECOST_RUSTC_VERSION={version}");

    let lock = fs::read_to_string("Cargo.lock").expect("Cargo.lock beside Cargo.toml");
    let rmcp = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"rmcp\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")?.strip_suffix('"')))
        .expect("Cargo.lock pins rmcp");
    println!("cargo:rustc-env=WIRECOST_RMCP_VERSION={rmcp}");
    println!("cargo:rerun-if-changed=Cargo.lock");
}
