//! Records the commit sololab is built from, for `run.toml` and `--version`: the env var
//! `SOLOLAB_BUILD_COMMIT` is the git commit hash of the source tree, with `-dirty` when
//! tracked files have uncommitted changes, or `unknown` when the build is not in a git work
//! tree (a crate tarball) or git is not installed.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let in_tree = |args: &[&str]| {
        let mut all = vec!["-C", dir.as_str()];
        all.extend_from_slice(args);
        git(&all)
    };
    // Only a work tree whose top is this crate counts (not a repository around it).
    let top = in_tree(&["rev-parse", "--show-toplevel"]);
    let ours = top.as_deref().is_some_and(|t| {
        std::fs::canonicalize(t).ok() == std::fs::canonicalize(&dir).ok()
    });
    let commit = match in_tree(&["rev-parse", "HEAD"]) {
        Some(hash) if ours && !hash.is_empty() => {
            let dirty = in_tree(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}-dirty") } else { hash }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=SOLOLAB_BUILD_COMMIT={commit}");
    // Rerun when the commit or the tracked sources change.
    if ours && let Some(git_dir) = in_tree(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/index");
        if let Some(common) = in_tree(&["rev-parse", "--git-common-dir"]) {
            let common = std::path::Path::new(&dir).join(common);
            println!("cargo:rerun-if-changed={}/refs", common.display());
            println!("cargo:rerun-if-changed={}/packed-refs", common.display());
        }
    }
    for path in ["build.rs", "Cargo.toml", "Cargo.lock", "src", "strategies"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
