//! The key password verifiers are made with (issue 43; `post::password`):
//! 32 random bytes in a file of their own (readable by its owner alone),
//! never in the database: beside a SQLite store (`umpire.sqlite.key`), or
//! for a PostgreSQL store beside `umpire.toml` (`umpire.key`), shared by
//! the workers that read it (`Config::key_file`). A copy of the database without it (a backup, a stolen file)
//! gives no fast way to try passwords, only Argon2. Made on first use; a
//! file that cannot be read or made leaves the post office without a key,
//! and every password is verified with Argon2 as before.

use std::fmt;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// A verifier key. Never shown: its `Debug` names no byte of it.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl Key {
    /// The key's bytes, to make a verifier with.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(..)")
    }
}

/// The key file of the SQLite store at `store`: `STORE.key` beside it.
pub fn beside(store: &Path) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push(".key");
    PathBuf::from(name)
}

/// The key in the file at `path`, made there first when there is none.
/// Made whole under a name of its own and then linked into place, so two
/// processes starting at once share one key and none reads half of one.
///
/// # Errors
/// When the file cannot be read or made, or does not hold a key.
pub fn load_or_make(path: &Path) -> io::Result<Key> {
    match read(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        read => return read,
    }
    let mut made = path.as_os_str().to_owned();
    made.push(format!(".new-{}", std::process::id()));
    let made = PathBuf::from(made);
    let key: [u8; 32] = rand::random();
    let written = write_private(&made, &format!("{}\n", hex::encode(key)))
        .and_then(|()| std::fs::hard_link(&made, path));
    let _ = std::fs::remove_file(&made);
    match written {
        Ok(()) => Ok(Key(key)),
        // Another process made it first: its key is the one.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read(path),
        Err(e) => Err(e),
    }
}

fn read(path: &Path) -> io::Result<Key> {
    let text = std::fs::read_to_string(path)?;
    let mut key = [0u8; 32];
    hex::decode_to_slice(text.trim(), &mut key).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} does not hold a key (64 hex digits); delete it and umpire makes a new one",
                path.display()
            ),
        )
    })?;
    Ok(Key(key))
}

/// Write a new file only its owner may read.
fn write_private(path: &Path, text: &str) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_readable_by_its_owner_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = beside(&dir.path().join("umpire.sqlite"));
        assert_eq!(path, dir.path().join("umpire.sqlite.key"));
        let key = load_or_make(&path).unwrap();
        assert_eq!(load_or_make(&path).unwrap(), key, "read, not made again");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(format!("{key:?}"), "Key(..)");
        let others: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(others.len(), 1, "no file left half made");
    }

    #[test]
    fn a_damaged_key_file_is_refused_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("umpire.sqlite.key");
        std::fs::write(&path, "not a key").unwrap();
        let e = load_or_make(&path).unwrap_err();
        assert!(e.to_string().contains("does not hold a key"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not a key");
    }
}
