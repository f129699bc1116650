//! The report folder as a unit: every file of a run's report is written together, and the
//! whole folder is replaced at once, so that a folder never mixes two runs and a failed,
//! interrupted or concurrent run never leaves a half-written report, nor debris, nor destroys
//! anything sololab did not write.
//!
//! A run opens its report folder with [`ReportDir::open`] *before its first game*. That:
//! - checks every path the run will write (a file in the way, a read-only or missing parent, a
//!   name too long for the file system) by creating them: the folder itself (empty, when it
//!   did not exist), a staging folder beside it, and each report file inside the staging
//!   folder;
//! - locks the folder (an OS lock, `flock`, on the folder itself on Unix; on `<out>/.sololab-lock`
//!   elsewhere; released even if the process is killed): a second run on the same folder is
//!   refused with one line naming the locked folder, it does not wait;
//! - refuses a folder that holds anything but a previous sololab report (a folder is one when
//!   it holds the marker [`MARKER`] and nothing it does not list, or, for reports written
//!   before the marker existed, only `summary.csv`, `run.toml` and `games.csv` with sololab's
//!   `run.toml` header, or only `strength.csv` with sololab's header and `strength.svg`). An
//!   empty folder is fine;
//! - refuses a previous report of another kind (a run's report where a sensitivity analysis
//!   was, say: each command replaces only its own kind of report).
//!
//! The run then writes each file into the staging folder ([`ReportDir::create`],
//! [`ReportDir::write`]; a file can be streamed, like `games.csv`), and
//! [`ReportDir::commit`] writes the marker and swaps the staging folder with the report folder
//! in one `rename` (Linux `RENAME_EXCHANGE`; elsewhere two renames), then deletes the previous
//! report. Until then the previous report is untouched. Dropping a `ReportDir` without
//! committing (an error) removes everything `open` created; [`abandon_reports`], called by a
//! signal handler before the process exits, does the same for every open report folder and
//! blocks any commit that has not started (one that has is finished first). A run killed
//! outright (`SIGKILL`) leaves its staging folder, `.sololab-<pid>-<n>-<host tag>.tmp` beside
//! the report folder; the next run there on the same host and PID namespace removes it (its
//! process is gone) and the report is untouched. The host tag keeps runs of other cluster
//! nodes or containers (which may have the same process ids) apart ([`host_tag`]). A folder is
//! removed so only when it is provably a staging folder: it holds the [`STAGING_MARKER`] the
//! run wrote into it when it created it (until the commit, which removes the marker once the
//! folder holds a whole report), or it is empty, or a whole sololab report; a folder merely
//! named like one (someone's notes) is left alone.
//!
//! Later files of a report (HTML pages, shard files) are added to the same unit by writing
//! them into the staging folder before the commit; the marker lists them.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::report::ReportError;

/// The file that marks a folder as a sololab report and lists the files of that report, one a
/// line after a comment line.
pub const MARKER: &str = ".sololab-report";

/// The lock file inside a report folder while a run writes it, where folders cannot be locked
/// themselves (not on Unix).
pub const LOCK: &str = ".sololab-lock";

/// The work area of a run inside its report folder: the finished chunks of an interrupted run,
/// kept for `sololab run --resume` (see `lab::work`). A report folder may hold it beside its
/// report; the commit of the finished run removes it with the previous report.
pub const WORK: &str = ".sololab-work";

/// The file that marks a folder as a staging folder of a run of this host (see
/// `staging_marker_text`): written into every staging folder when the run creates it, and
/// removed by the commit just before the swap (the folder then holds a whole report, listed
/// by [`MARKER`]). Only a folder holding it, or an empty folder, or a whole sololab report, is
/// ever removed as a killed run's staging folder.
pub const STAGING_MARKER: &str = ".sololab-staging";

/// The files of a report written before [`MARKER`] existed; such a folder is recognised as a
/// report when it holds only these and its `run.toml` starts with [`RUN_TOML_HEADER`].
pub(super) const LEGACY_FILES: &[&str] = &["summary.csv", "run.toml", "games.csv"];

/// The files of a strength curve (`bench --strength`) written before [`MARKER`] existed; such
/// a folder is recognised when it holds only these and `strength.csv` starts with sololab's
/// header ([`STRENGTH_CSV_HEADER`](super::STRENGTH_CSV_HEADER)).
pub(super) const LEGACY_STRENGTH_FILES: &[&str] = &["strength.csv", "strength.svg"];

/// The first line of every `run.toml` sololab writes.
pub const RUN_TOML_HEADER: &str =
    "# How this report was made. [experiment] is the experiment as run and [strategies]";

/// What `open` created and must remove if the report is not committed.
#[derive(Debug, Default)]
struct Debris {
    /// The staging folder (removed with its contents), once this run has created it (empty
    /// before: a folder of that name made by anyone else is not this run's to remove).
    staging: PathBuf,
    /// The lock file.
    lock: PathBuf,
    /// Folders `open` created, outermost first (removed innermost first, when empty).
    created: Vec<PathBuf>,
}

impl Debris {
    fn remove(&self) {
        if !self.staging.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
        if !self.lock.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.lock);
        }
        for dir in self.created.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The report folders open in this process, by id, for [`abandon_reports`].
static OPEN: Mutex<Vec<(u64, Debris)>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

fn open_reports() -> std::sync::MutexGuard<'static, Vec<(u64, Debris)>> {
    OPEN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes what every open, uncommitted [`ReportDir`] of this process created (staging folder,
/// lock file, folders it created), waits for a commit under way to finish, and blocks every
/// later commit. For a signal handler that then ends the process: after this call no report
/// can be committed by this process.
pub fn abandon_reports() {
    let guard = open_reports();
    for (_, debris) in guard.iter() {
        debris.remove();
    }
    // Held until the process exits: no commit can start after the clean-up.
    std::mem::forget(guard);
}

/// A report folder opened for a new report: locked, checked, with a staging folder beside it
/// where the report's files are written until [`ReportDir::commit`] swaps it in. See the
/// module documentation.
#[derive(Debug)]
pub struct ReportDir {
    out: PathBuf,
    staging: PathBuf,
    /// The open lock file (the OS lock lasts as long as this handle).
    lock: Option<File>,
    files: Vec<String>,
    id: u64,
    committed: bool,
    /// Whether the commit carries the folder's work area ([`WORK`]) over into the new report
    /// (true unless [`ReportDir::ends_work_area`] was called).
    keeps_work: bool,
}

fn io_error(path: &Path, source: std::io::Error) -> ReportError {
    ReportError::Write {
        path: path.to_path_buf(),
        source,
    }
}

fn create_error(path: &Path, source: std::io::Error) -> ReportError {
    ReportError::CreateDir {
        path: path.to_path_buf(),
        source,
    }
}

impl ReportDir {
    /// Opens `out` for a new report whose files will be `files` (names inside the folder):
    /// creates the missing folders, locks the folder, checks that it is empty or a previous
    /// sololab report, and creates the staging folder with an empty file of each name to
    /// prove they can be written. Nothing is left behind when this fails.
    ///
    /// # Errors
    /// A one-line [`ReportError`]: [`Locked`](ReportError::Locked) when another run holds the
    /// folder, [`NotAReport`](ReportError::NotAReport) for a folder with other files,
    /// [`ReservedName`](ReportError::ReservedName) for a path through a folder named like
    /// sololab's own (beginning with `.sololab`),
    /// [`CreateDir`](ReportError::CreateDir) or [`Write`](ReportError::Write) naming the path
    /// that cannot be created or written.
    pub fn open(out: &Path, files: &[&str]) -> Result<ReportDir, ReportError> {
        let original = out;
        reserved_name(out)?;
        // A symbolic link to a folder is written through: the report goes into the folder it
        // points to, and the link stays (swapping the staging folder with the link itself
        // would replace the link and strand the folder's contents).
        let resolved;
        let out = match std::fs::symlink_metadata(out) {
            Ok(m) if m.file_type().is_symlink() => {
                resolved = std::fs::canonicalize(out).map_err(|e| create_error(out, e))?;
                resolved.as_path()
            }
            _ => out,
        };
        if out != original {
            reserved_name(out)?;
        }
        let Some(name) = out.file_name() else {
            return Err(ReportError::NotAFolderName {
                path: out.to_path_buf(),
            });
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let out = parent.join(name);
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let staging = parent.join(format!(
            ".sololab-{}-{id}-{}.tmp",
            std::process::id(),
            host_tag()
        ));
        let mut debris = Debris {
            staging: PathBuf::new(),
            lock: PathBuf::new(),
            created: Vec::new(),
        };
        // Under the registry's lock, so that a signal handler cleaning up sees either nothing
        // of this folder or all that was created.
        let mut open = open_reports();
        match Self::prepare(&out, &staging, files, &mut debris) {
            Ok(lock) => {
                open.push((id, debris));
                Ok(ReportDir {
                    out,
                    staging,
                    lock: Some(lock),
                    files: Vec::new(),
                    id,
                    committed: false,
                    keeps_work: true,
                })
            }
            Err(e) => {
                debris.remove();
                Err(e)
            }
        }
    }

    fn prepare(
        out: &Path,
        staging: &Path,
        files: &[&str],
        debris: &mut Debris,
    ) -> Result<File, ReportError> {
        if out.exists() && !out.is_dir() {
            return Err(ReportError::NotAReport {
                path: out.to_path_buf(),
                reason: "it is a file, not a folder".into(),
            });
        }
        // The missing ancestors, outermost first, then the folder itself.
        let mut missing = Vec::new();
        let mut at = Some(out);
        while let Some(dir) = at {
            if dir.as_os_str().is_empty() || dir.exists() {
                break;
            }
            missing.push(dir.to_path_buf());
            at = dir.parent();
        }
        for dir in missing.iter().rev() {
            match std::fs::create_dir(dir) {
                Ok(()) => debris.created.push(dir.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => {}
                Err(e) => return Err(create_error(dir, e)),
            }
        }
        let lock = match lock(out) {
            Ok(lock) => lock,
            Err(e @ ReportError::Locked { .. }) => {
                // The folder is the other run's now, even if this one created it.
                debris.created.clear();
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        if cfg!(not(unix)) {
            // Ours to remove from now on (not before: another run's lock file is not).
            debris.lock = out.join(LOCK);
        }
        check_previous_report(out)?;
        check_same_kind(out, files)?;
        // The folder itself must take new entries (a run keeps its finished chunks in its work
        // area there, and the commit swaps the folder away): proven by creating the work area's
        // folder when it is absent, and removing it again (an empty one left by a killed run
        // holds nothing, and the next run removes it: `lab::work`).
        let work = out.join(WORK);
        if !work.exists() {
            std::fs::create_dir(&work).map_err(|e| io_error(out, e))?;
            std::fs::remove_dir(&work).map_err(|e| io_error(out, e))?;
        }
        remove_stale_staging(staging.parent().unwrap_or(Path::new(".")));
        std::fs::create_dir(staging).map_err(|e| create_error(staging, e))?;
        debris.staging = staging.to_path_buf();
        let marker = staging.join(STAGING_MARKER);
        let text = staging_marker_text(std::process::id(), host_tag());
        write_synced(&marker, &text).map_err(|e| io_error(&marker, e))?;
        for name in files.iter().chain(&[MARKER]) {
            let path = staging.join(name);
            File::create(&path).map_err(|e| io_error(&out.join(name), e))?;
            std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
        }
        Ok(lock)
    }

    /// The report folder (where the files will be once committed).
    pub fn path(&self) -> &Path {
        &self.out
    }

    /// Makes the commit drop the folder's work area ([`WORK`]) with the previous report: for
    /// the run whose own finished chunks it holds (a run or a shard that opened it with
    /// `lab::WorkArea::open`), once that run's report is the one committed. Every other
    /// report (a rebuilt page, a merged report, a `--raw` run) carries an interrupted run's
    /// work area over, so that its finished games are never thrown away by another command.
    pub fn ends_work_area(&mut self) {
        self.keeps_work = false;
    }

    /// Creates file `name` of the report in the staging folder, for streaming.
    ///
    /// # Errors
    /// [`ReportError::Write`] naming the file's final path.
    pub fn create(&mut self, name: &str) -> Result<ReportFile, ReportError> {
        let path = self.staging.join(name);
        let file = File::create(&path).map_err(|e| io_error(&self.out.join(name), e))?;
        if !self.files.iter().any(|f| f == name) {
            self.files.push(name.to_string());
        }
        Ok(ReportFile {
            shown: self.out.join(name),
            writer: BufWriter::new(file),
        })
    }

    /// Writes file `name` of the report, whole, in the staging folder.
    ///
    /// # Errors
    /// [`ReportError::Write`] naming the file's final path.
    pub fn write(&mut self, name: &str, contents: &str) -> Result<(), ReportError> {
        let mut file = self.create(name)?;
        file.write_all(contents.as_bytes())
            .map_err(|e| io_error(&file.shown, e))?;
        file.finish()
    }

    /// Writes the marker, then swaps the staging folder in for the report folder at once and
    /// deletes the previous report. Returns the paths of the report's files (without the
    /// marker).
    ///
    /// # Errors
    /// [`ReportError::Write`] when the marker cannot be written, the folder's work area cannot
    /// be moved into the new report, or the swap fails; the previous report is then as it was.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, ReportError> {
        let mut names = self.files.clone();
        names.sort();
        let mut marker = String::from("# sololab report: the files of this report, one a line\n");
        for n in &names {
            marker.push_str(n);
            marker.push('\n');
        }
        let path = self.staging.join(MARKER);
        write_synced(&path, &marker).map_err(|e| io_error(&self.out.join(MARKER), e))?;
        // The staging folder's own marker stays out of the report. From here until the swap the
        // folder holds a whole report (every file listed by the marker just written), which a
        // later run may still recognise as a killed run's staging folder.
        let staged = self.staging.join(STAGING_MARKER);
        std::fs::remove_file(&staged).map_err(|e| io_error(&staged, e))?;
        let mut open = open_reports();
        // An interrupted run's work area goes into the new report before the swap, so the one
        // exchange carries it (unless this report is that run's own, which ends it). A folder
        // that will not give it up fails here, with the previous report as it was.
        let work = self.out.join(WORK);
        let carried = self.staging.join(WORK);
        let carry = self.keeps_work && work.is_dir();
        if carry {
            std::fs::rename(&work, &carried).map_err(|e| io_error(&work, e))?;
        }
        if let Err(e) = swap(&self.staging, &self.out) {
            if carry && std::fs::rename(&carried, &work).is_err() {
                // Both renames failed: the staging folder, which holds the work area, is kept.
                open.retain(|(id, _)| *id != self.id);
                self.committed = true;
                return Err(ReportError::Write {
                    path: self.out.clone(),
                    source: std::io::Error::new(
                        e.kind(),
                        format!("{e}; the work area is in {}", carried.display()),
                    ),
                });
            }
            return Err(io_error(&self.out, e));
        }
        // The staging path now holds the previous report (with the lock file).
        let _ = std::fs::remove_dir_all(&self.staging);
        open.retain(|(id, _)| *id != self.id);
        self.committed = true;
        drop(open);
        self.lock = None;
        Ok(names.iter().map(|n| self.out.join(n)).collect())
    }
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        let mut open = open_reports();
        if let Some(i) = open.iter().position(|(id, _)| *id == self.id) {
            let (_, debris) = open.remove(i);
            debris.remove();
        }
    }
}

/// A file of a report being written in the staging folder (buffered).
#[derive(Debug)]
pub struct ReportFile {
    shown: PathBuf,
    writer: BufWriter<File>,
}

impl ReportFile {
    /// The file's final path, for messages.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// Flushes and syncs the file to disk.
    ///
    /// # Errors
    /// [`ReportError::Write`] naming the file.
    pub fn finish(self) -> Result<(), ReportError> {
        let shown = self.shown;
        let file = self
            .writer
            .into_inner()
            .map_err(|e| io_error(&shown, e.into_error()))?;
        file.sync_all().map_err(|e| io_error(&shown, e))
    }
}

impl Write for ReportFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

fn write_synced(path: &Path, contents: &str) -> std::io::Result<()> {
    let mut f = File::create(path)?;
    f.write_all(contents.as_bytes())?;
    f.sync_all()
}

/// Takes the OS lock of folder `out` (`flock` on the folder itself on Unix, so no lock file is
/// ever left behind, even by a killed run; elsewhere on `out/.sololab-lock`), refusing when
/// another process holds it. The path is re-checked after locking, since a run that finishes
/// swaps the locked folder away.
fn lock(out: &Path) -> Result<File, ReportError> {
    let path = lock_path(out);
    for _ in 0..100 {
        let file = open_lock(&path).map_err(|e| io_error(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(ReportError::Locked { lock: path });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_error(&path, e)),
        }
        if same_file(&file, &path) {
            return Ok(file);
        }
    }
    Err(ReportError::Locked { lock: path })
}

#[cfg(unix)]
fn lock_path(out: &Path) -> PathBuf {
    out.to_path_buf()
}

#[cfg(unix)]
fn open_lock(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn lock_path(out: &Path) -> PathBuf {
    out.join(LOCK)
}

#[cfg(not(unix))]
fn open_lock(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// This host and PID namespace as 16 hex digits (a 64-bit FNV-1a hash of the kernel's boot
/// id, the hostname and the PID namespace; on systems without `/proc`, of the `HOSTNAME`
/// variable). Staging folders carry it, so runs whose process ids are not this process's to
/// compare (other nodes of a cluster on a shared file system; Kubernetes pods, where every run
/// is process 1) never share a staging name with this run, and this run never judges their
/// folders stale by its own process table.
pub(crate) fn host_tag() -> &'static str {
    static TAG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TAG.get_or_init(|| {
        let mut text = String::new();
        for file in [
            "/proc/sys/kernel/random/boot_id",
            "/proc/sys/kernel/hostname",
        ] {
            text.push_str(std::fs::read_to_string(file).unwrap_or_default().trim());
            text.push('\n');
        }
        if let Ok(ns) = std::fs::read_link("/proc/self/ns/pid") {
            text.push_str(&ns.to_string_lossy());
        }
        if text.trim().is_empty() {
            text = std::env::var("HOSTNAME").unwrap_or_default();
        }
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{hash:016x}")
    })
}

/// The text of [`STAGING_MARKER`] in a staging folder of process `pid` on host `tag`.
fn staging_marker_text(pid: u32, tag: &str) -> String {
    format!(
        "# sololab staging folder of process {pid} on host {tag}: the report being written, \
         removed when the run ends\n"
    )
}

/// The process id and host tag of a staging folder's name, `.sololab-<pid>-<n>-<host tag>.tmp`
/// (or `.old`: the two-rename swap's name for the previous report), with `<pid>` and `<n>`
/// decimal numbers and `<host tag>` 16 lowercase hex digits; `None` for any other name.
fn staging_name_fields(name: &str) -> Option<(u32, &str)> {
    let fields = name
        .strip_prefix(".sololab-")
        .and_then(|r| r.strip_suffix(".tmp").or_else(|| r.strip_suffix(".old")))?;
    let mut fields = fields.split('-');
    let (Some(pid), Some(n), Some(tag), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return None;
    };
    let decimal = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let hex = tag.len() == 16 && tag.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !decimal(pid) || !decimal(n) || !hex {
        return None;
    }
    Some((pid.parse().ok()?, tag))
}

/// Whether folder `path`, named for process `pid` on host `tag`, is provably a staging folder
/// sololab made and holds nothing to keep: a folder (not a link) holding the
/// [`STAGING_MARKER`] sololab wrote there for that process and host, or the start of it (a run
/// killed while it wrote its report, or while it wrote the marker), or empty (killed before
/// it wrote the marker), or holding a whole sololab report and nothing else (killed during
/// its commit, when the folder holds the new report before the swap or the previous one
/// after). Never a folder holding a work area ([`WORK`]): a commit moves an interrupted run's
/// finished games there before the swap, and when the swap fails it says so and keeps them.
fn is_own_staging(path: &Path, pid: u32, tag: &str) -> bool {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        || std::fs::symlink_metadata(path.join(WORK)).is_ok()
    {
        return false;
    }
    let marker = path.join(STAGING_MARKER);
    if std::fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file()) {
        return std::fs::read_to_string(&marker)
            .is_ok_and(|t| staging_marker_text(pid, tag).starts_with(&t));
    }
    check_previous_report(path).is_ok()
}

/// Removes the staging folders in `parent` left by runs of this host and PID namespace that
/// were killed (`SIGKILL`: no handler could clean up): `.sololab-<pid>-<n>-<host tag>.tmp`
/// with this process's [`host_tag`] whose process no longer exists, and which is provably a
/// staging folder ([`is_own_staging`]). A folder of a live process (or of a process id now
/// reused), of another host or namespace, of an older version's naming, or holding anything
/// sololab did not write there (a folder someone named so, say) is left alone, and so is
/// every `.old` folder: the two-rename swap (where the system cannot exchange two folders)
/// keeps the previous report there, and a run killed between its two renames leaves it as the
/// only copy of that report.
fn remove_stale_staging(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((pid, tag)) = staging_name_fields(&name) else {
            continue;
        };
        if !name.ends_with(".old")
            && tag == host_tag()
            && pid != std::process::id()
            && !process_exists(pid)
            && is_own_staging(&entry.path(), pid, tag)
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(target_os = "linux")]
fn process_exists(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(not(target_os = "linux"))]
fn process_exists(_pid: u32) -> bool {
    true
}

/// Refuses a report folder path `out` with a folder named like sololab's own (beginning with
/// `.sololab`: [`MARKER`], [`WORK`], [`LOCK`], [`STAGING_MARKER`], staging folders
/// `.sololab-<pid>-<n>-<host tag>.tmp`): a report there could be taken for a run's debris or
/// work area and removed (a report folder named like a staging folder was removed by its own
/// run as a dead run's staging folder, before its first chunk was saved).
fn reserved_name(out: &Path) -> Result<(), ReportError> {
    for part in out.components() {
        if let std::path::Component::Normal(name) = part {
            let name = name.to_string_lossy();
            if name.starts_with(".sololab") {
                return Err(ReportError::ReservedName {
                    path: out.to_path_buf(),
                    name: name.into_owned(),
                });
            }
        }
    }
    Ok(())
}

/// Checks that folder `out` is empty or a previous sololab report (see the module docs).
/// Refuses to replace a previous report of another kind ([`ReportError::OtherKind`]): the kind
/// of the folder's report is that of the main file it holds
/// ([`FolderKind::of`](super::FolderKind::of)), the new report's that of the first main file
/// in `files`. A report without a main file (the page that `sololab report` rebuilds) replaces
/// nothing of another kind.
fn check_same_kind(out: &Path, files: &[&str]) -> Result<(), ReportError> {
    use super::FolderKind;
    let new = FolderKind::ALL
        .into_iter()
        .find(|k| files.contains(&k.data_file()));
    match (FolderKind::of(out), new) {
        (Some(held), Some(new)) if held != new => Err(ReportError::OtherKind {
            path: out.to_path_buf(),
            held: held.data_file(),
            new: new.data_file(),
        }),
        _ => Ok(()),
    }
}

fn check_previous_report(out: &Path) -> Result<(), ReportError> {
    let entries = std::fs::read_dir(out).map_err(|e| io_error(out, e))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error(out, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name != LOCK && name != WORK {
            names.push(name);
        }
    }
    names.sort();
    if names.is_empty() {
        return Ok(());
    }
    let not_a_report = |reason: String| ReportError::NotAReport {
        path: out.to_path_buf(),
        reason,
    };
    let listed: Vec<String> = match std::fs::read_to_string(out.join(MARKER)) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(str::to_string)
            .chain([MARKER.to_string()])
            .collect(),
        Err(_) => {
            let header = std::fs::read_to_string(out.join("run.toml")).unwrap_or_default();
            let strength = std::fs::read_to_string(out.join("strength.csv")).unwrap_or_default();
            if header.starts_with(RUN_TOML_HEADER) {
                LEGACY_FILES.iter().map(|s| s.to_string()).collect()
            } else if strength.starts_with(&super::STRENGTH_CSV_HEADER.join(",")) {
                LEGACY_STRENGTH_FILES
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            } else {
                return Err(not_a_report(format!(
                    "it holds '{}' and has no {MARKER} marker",
                    names[0]
                )));
            }
        }
    };
    match names.iter().find(|n| !listed.contains(n)) {
        Some(foreign) => Err(not_a_report(format!(
            "'{foreign}' is not a file of its previous report"
        ))),
        None => Ok(()),
    }
}

/// Puts folder `new` at `out` and the previous `out` at `new`, at once where the system can
/// (`out` removed meanwhile by someone else: `new` is simply renamed).
fn swap(new: &Path, out: &Path) -> std::io::Result<()> {
    if !out.exists() {
        return std::fs::rename(new, out);
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, new, CWD, out, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(()),
            Err(e)
                if e == rustix::io::Errno::INVAL
                    || e == rustix::io::Errno::NOSYS
                    || e == rustix::io::Errno::OPNOTSUPP => {}
            Err(e) => return Err(e.into()),
        }
    }
    // Two renames: the previous report is kept under the staging name meanwhile.
    let old = new.with_extension("old");
    std::fs::rename(out, &old)?;
    if let Err(e) = std::fs::rename(new, out) {
        let _ = std::fs::rename(&old, out);
        return Err(e);
    }
    std::fs::rename(&old, new)
}
