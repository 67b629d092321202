//! Moving raw messages in and out: SMTP (lettre), IMAP polling, a Maildir
//! inbox and the spool folder of `.eml` files used when no mail server is
//! configured. Only bytes cross this module; nothing here reads orders.

use crate::config::{ImapConfig, Security, ServerConfig};
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Address, SmtpTransport, Transport};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Errors moving mail.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    #[error("bad address '{0}'")]
    Address(String),
    #[error("SMTP: {0}")]
    Smtp(#[from] lettre::transport::smtp::Error),
    #[error("IMAP: {said}")]
    Imap { trouble: Trouble, said: String },
    #[error("TLS: {0}")]
    Tls(String),
    /// A mail server not reached (`host:port` in `at`).
    #[error("{at}: {source}")]
    Unreachable { at: String, source: std::io::Error },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// What kind of trouble a mail server gave, for the fix a person needs
/// (`umpire check`). Decided where the error is made, from the kinds the
/// system, lettre and the IMAP crate give their errors, never from the
/// error's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Trouble {
    /// Not reached: the host's name not found, the port closed, no answer
    /// in time (`127.0.0.1:2525: Connection refused`).
    Connect,
    /// TLS failed: no TLS on that port, or a certificate not for the host
    /// (`received corrupt message of type InvalidContentType`).
    Tls,
    /// The login refused (`535 5.7.8 authentication failed`, IMAP's `NO`
    /// to `LOGIN`).
    Authentication,
    /// Anything else (a mailbox that does not exist, a refused command).
    Other,
}

impl TransportError {
    /// What kind of trouble this is ([`Trouble`]).
    pub fn trouble(&self) -> Trouble {
        match self {
            TransportError::Unreachable { .. } => Trouble::Connect,
            TransportError::Tls(_) => Trouble::Tls,
            TransportError::Imap { trouble, .. } => *trouble,
            TransportError::Smtp(e) => smtp_trouble(e),
            TransportError::Address(_) | TransportError::Io { .. } => Trouble::Other,
        }
    }
}

/// The trouble of an SMTP error, by lettre's kinds and the reply's code.
fn smtp_trouble(e: &lettre::transport::smtp::Error) -> Trouble {
    if e.is_tls() {
        return Trouble::Tls;
    }
    if let Some(code) = e.status() {
        // Authentication required, temporarily failed, mechanism too weak,
        // credentials invalid, encryption required for it (RFC 4954).
        return match u16::from(code) {
            454 | 530 | 534 | 535 | 538 => Trouble::Authentication,
            _ => Trouble::Other,
        };
    }
    if e.is_timeout() {
        return Trouble::Connect;
    }
    std::error::Error::source(e)
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .map_or(Trouble::Other, io_trouble)
}

/// The trouble of an I/O error on a mail server's connection: a TLS error
/// rustls gave it, or its kind.
fn io_trouble(e: &std::io::Error) -> Trouble {
    use std::io::ErrorKind as K;
    if e.get_ref().is_some_and(|inner| inner.is::<rustls::Error>()) {
        return Trouble::Tls;
    }
    match e.kind() {
        K::ConnectionRefused
        | K::ConnectionReset
        | K::ConnectionAborted
        | K::NotConnected
        | K::TimedOut
        | K::HostUnreachable
        | K::NetworkUnreachable
        | K::AddrNotAvailable => Trouble::Connect,
        _ => Trouble::Other,
    }
}

/// An IMAP error as a [`TransportError`]: `refused` is the trouble of a
/// `NO` or `BAD` answer to the command that failed (the login's is
/// [`Trouble::Authentication`]).
fn imap_failed(e: imap::Error, refused: Trouble) -> TransportError {
    let trouble = match &e {
        imap::Error::No(_) | imap::Error::Bad(_) => refused,
        imap::Error::Io(io) => io_trouble(io),
        _ => Trouble::Other,
    };
    TransportError::Imap {
        trouble,
        said: e.to_string(),
    }
}

/// Connect to a mail server at `host:port`: the name looked up and the
/// port reached, or [`TransportError::Unreachable`].
///
/// # Errors
/// When the name is not found, or no address of it takes the connection.
pub fn reach(host: &str, port: u16) -> Result<TcpStream, TransportError> {
    TcpStream::connect((host, port)).map_err(|source| TransportError::Unreachable {
        at: format!("{host}:{port}"),
        source,
    })
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> TransportError + '_ {
    move |source| TransportError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Where outgoing mail goes.
pub enum Outlet {
    /// A real SMTP server.
    Smtp(SmtpTransport),
    /// A folder of `.eml` files, one per message, named after its Message-ID.
    /// When `durable`, [`Outlet::settle`] puts the files on disk.
    Spool { dir: PathBuf, durable: bool },
}

impl Outlet {
    /// Connect to the configured SMTP server.
    ///
    /// # Errors
    /// When the TLS setup for the host fails.
    pub fn smtp(cfg: &ServerConfig) -> Result<Outlet, TransportError> {
        let builder = match cfg.security {
            Security::None => SmtpTransport::builder_dangerous(&cfg.host),
            Security::Starttls => SmtpTransport::starttls_relay(&cfg.host)?,
            Security::Tls => SmtpTransport::relay(&cfg.host)?,
        };
        let mut builder = builder
            .port(cfg.port)
            .timeout(Some(Duration::from_secs(30)));
        if let (Some(u), Some(p)) = (&cfg.username, &cfg.password) {
            builder = builder.credentials(Credentials::new(u.clone(), p.clone()));
        }
        Ok(Outlet::Smtp(builder.build()))
    }

    /// Deliver one message. Sending the same Message-ID to the spool twice
    /// overwrites the same file, so a retry never makes a second copy.
    ///
    /// # Errors
    /// When the server refuses or cannot be reached, or the folder cannot be written.
    pub fn deliver(
        &self,
        from: &str,
        recipients: &[String],
        message_id: &str,
        raw: &[u8],
    ) -> Result<(), TransportError> {
        match self {
            Outlet::Smtp(t) => {
                // An empty envelope sender (`MAIL FROM:<>`) for responses (RFC 3834).
                let from: Option<Address> = if from.is_empty() {
                    None
                } else {
                    Some(
                        from.parse()
                            .map_err(|_| TransportError::Address(from.to_string()))?,
                    )
                };
                let to = recipients
                    .iter()
                    .map(|r| r.parse().map_err(|_| TransportError::Address(r.clone())))
                    .collect::<Result<Vec<Address>, _>>()?;
                let envelope = Envelope::new(from, to)
                    .map_err(|_| TransportError::Address(recipients.join(",")))?;
                t.send_raw(&envelope, raw)?;
                Ok(())
            }
            Outlet::Spool { dir, durable } => {
                std::fs::create_dir_all(dir).map_err(io_err(dir))?;
                let name = spool_file_name(message_id);
                let tmp = dir.join(format!(".{name}.tmp"));
                let path = dir.join(name);
                let mut file = std::fs::File::create(&tmp).map_err(io_err(&tmp))?;
                file.write_all(raw).map_err(io_err(&tmp))?;
                // Where there is no `syncfs`, each file is synced itself.
                if *durable && cfg!(not(target_os = "linux")) {
                    file.sync_data().map_err(io_err(&tmp))?;
                }
                std::fs::rename(&tmp, &path).map_err(io_err(&path))?;
                Ok(())
            }
        }
    }

    /// Try the way out without sending: an SMTP server is connected to,
    /// with its TLS and login, and left (`umpire check`); a spool folder
    /// must be there.
    ///
    /// # Errors
    /// When the server cannot be reached, refuses the TLS or the login, or
    /// the spool is not a folder.
    pub fn test(&self) -> Result<(), TransportError> {
        match self {
            Outlet::Smtp(t) => {
                if t.test_connection()? {
                    Ok(())
                } else {
                    Err(TransportError::Io {
                        path: "SMTP".into(),
                        source: std::io::Error::other("the server did not answer NOOP"),
                    })
                }
            }
            Outlet::Spool { dir, .. } => std::fs::read_dir(dir).map(|_| ()).map_err(io_err(dir)),
        }
    }

    /// Make what was delivered so far survive a crash of the machine; the
    /// outbox marks a message sent only after this. An SMTP server that
    /// accepted a message has taken it on (RFC 5321 §6.1), but a spool file
    /// is only in the system's cache until it is written out: a durable
    /// spool syncs its file system (Linux's `syncfs`), once for a batch of
    /// files: a sync of each file cost some 0.4 ms a file here.
    ///
    /// # Errors
    /// When the folder cannot be opened or synced.
    pub fn settle(&self) -> Result<(), TransportError> {
        match self {
            Outlet::Spool { dir, durable: true } => {
                let folder = std::fs::File::open(dir).map_err(io_err(dir))?;
                #[cfg(target_os = "linux")]
                rustix::fs::syncfs(&folder).map_err(|e| io_err(dir)(e.into()))?;
                // The renames, where each file was synced as it was written.
                #[cfg(not(target_os = "linux"))]
                folder.sync_all().map_err(io_err(dir))?;
                Ok(())
            }
            Outlet::Spool { durable: false, .. } | Outlet::Smtp(_) => Ok(()),
        }
    }
}

/// A file name made from a Message-ID: only safe characters.
pub fn spool_file_name(message_id: &str) -> String {
    let safe: String = message_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.eml")
}

/// Messages waiting in a Maildir's `new/` folder, oldest name first.
///
/// # Errors
/// When the folder cannot be listed.
pub fn maildir_new(dir: &Path) -> Result<Vec<PathBuf>, TransportError> {
    let new = dir.join("new");
    if !new.exists() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&new)
        .map_err(io_err(&new))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// Move a stored message from `new/` to `cur/`, marked seen. Called only
/// after the message is committed to the store, so a crash in between
/// means it is read again next time (and recognised by its Message-ID).
///
/// # Errors
/// When the file cannot be moved.
pub fn maildir_mark_seen(dir: &Path, file: &Path) -> Result<(), TransportError> {
    let cur = dir.join("cur");
    std::fs::create_dir_all(&cur).map_err(io_err(&cur))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = name.split(":2,").next().unwrap_or(&name).to_string();
    let target = cur.join(format!("{base}:2,S"));
    std::fs::rename(file, &target).map_err(io_err(file))
}

/// A byte stream IMAP can run over: plain TCP or rustls.
trait Stream: Read + Write + Send {}
impl<T: Read + Write + Send> Stream for T {}

fn tls_config() -> Arc<rustls::ClientConfig> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Arc::new(
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring supports the default protocol versions")
            .with_root_certificates(roots)
            .with_no_client_auth(),
    )
}

/// Fetch every unseen message from the configured IMAP mailbox, hand each
/// to `keep` with the time the server received it (INTERNALDATE) — `keep`
/// must commit it to the store and return Ok — and only then flag it
/// `\Seen` on the server.
///
/// # Errors
/// When the server cannot be reached or refuses the login; `keep` errors
/// stop the poll with the message left unseen.
pub fn imap_poll<E: std::fmt::Display>(
    cfg: &ImapConfig,
    mut keep: impl FnMut(&[u8], Option<chrono::DateTime<chrono::Utc>>) -> Result<(), E>,
) -> Result<usize, TransportError> {
    let imap_err = |e: imap::Error| imap_failed(e, Trouble::Other);
    let mut session = imap_session(cfg)?;
    let mut unseen: Vec<u32> = session
        .uid_search("UNSEEN")
        .map_err(imap_err)?
        .into_iter()
        .collect();
    unseen.sort_unstable();
    let mut count = 0;
    for uid in unseen {
        let fetched = session
            .uid_fetch(uid.to_string(), "(INTERNALDATE BODY.PEEK[])")
            .map_err(imap_err)?;
        for f in fetched.iter() {
            if let Some(body) = f.body() {
                let arrived = f.internal_date().map(|d| d.with_timezone(&chrono::Utc));
                keep(body, arrived).map_err(|e| TransportError::Imap {
                    trouble: Trouble::Other,
                    said: format!("storing message {uid}: {e}"),
                })?;
                count += 1;
            }
        }
        session
            .uid_store(uid.to_string(), "+FLAGS (\\Seen)")
            .map_err(imap_err)?;
    }
    session.logout().ok();
    Ok(count)
}

/// Log in to the configured IMAP mailbox and select it, as a poll would,
/// touching no message: how many messages are unseen (`umpire check`).
///
/// # Errors
/// When the server cannot be reached, the TLS handshake or the login
/// fails, or there is no such mailbox.
pub fn imap_check(cfg: &ImapConfig) -> Result<usize, TransportError> {
    let mut session = imap_session(cfg)?;
    let unseen = session
        .search("UNSEEN")
        .map_err(|e| imap_failed(e, Trouble::Other))?
        .len();
    session.logout().ok();
    Ok(unseen)
}

/// A logged-in IMAP session with the configured mailbox selected.
fn imap_session(cfg: &ImapConfig) -> Result<imap::Session<Box<dyn Stream>>, TransportError> {
    let tcp = reach(&cfg.host, cfg.port)?;
    tcp.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let stream: Box<dyn Stream> = match cfg.security {
        Security::None => Box::new(tcp),
        Security::Tls => {
            let name = rustls::pki_types::ServerName::try_from(cfg.host.clone())
                .map_err(|e| TransportError::Tls(e.to_string()))?;
            let conn = rustls::ClientConnection::new(tls_config(), name)
                .map_err(|e| TransportError::Tls(e.to_string()))?;
            Box::new(rustls::StreamOwned::new(conn, tcp))
        }
        Security::Starttls => {
            return Err(TransportError::Imap {
                trouble: Trouble::Tls,
                said: "STARTTLS is not supported for IMAP; use security = \"tls\" (port 993)"
                    .into(),
            })
        }
    };
    let mut client = imap::Client::new(stream);
    client
        .read_greeting()
        .map_err(|e| imap_failed(e, Trouble::Other))?;
    let mut session = client
        .login(&cfg.username, &cfg.password)
        .map_err(|(e, _)| imap_failed(e, Trouble::Authentication))?;
    session
        .select(&cfg.mailbox)
        .map_err(|e| imap_failed(e, Trouble::Other))?;
    Ok(session)
}

/// DKIM keys from the system's DNS resolver (`/etc/resolv.conf`), each
/// look-up run to its end on a small runtime of this thread.
pub struct DnsKeys(mail_auth::MessageAuthenticator);

impl DnsKeys {
    /// A resolver as the system is configured.
    ///
    /// # Errors
    /// When the system's resolver configuration cannot be read.
    pub fn system() -> Result<DnsKeys, TransportError> {
        mail_auth::MessageAuthenticator::new_system_conf()
            .map(DnsKeys)
            .map_err(|e| TransportError::Io {
                path: "/etc/resolv.conf".into(),
                source: std::io::Error::other(e.to_string()),
            })
    }
}

impl crate::mail::dkim::KeyLookup for DnsKeys {
    fn domain_key(&self, name: &str) -> crate::mail::dkim::Lookup {
        use crate::mail::dkim::Lookup;
        match crate::mail::dkim::block_on(self.0.txt_raw_lookup(name)) {
            Ok(bytes) if bytes.is_empty() => Lookup::Missing,
            Ok(bytes) => Lookup::Found(String::from_utf8_lossy(&bytes).into_owned()),
            Err(mail_auth::Error::Dns(mail_auth::DnsError::RecordNotFound(_))) => Lookup::Missing,
            Err(e) => Lookup::Trouble(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io::{BufRead, BufReader};
    use std::net::TcpListener;

    /// A server on 127.0.0.1 for one connection: it says `greeting`, then
    /// answers each line it reads with the next of `replies` (`{tag}` the
    /// line's first word, as IMAP answers), and hangs up. Its port.
    fn scripted(greeting: &'static str, replies: &'static [&'static str]) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut lines = BufReader::new(stream.try_clone().unwrap());
            let mut out = stream;
            let _ = out.write_all(greeting.as_bytes());
            for reply in replies {
                let mut line = String::new();
                if lines.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let tag = line.split_whitespace().next().unwrap_or_default();
                let _ = out.write_all(reply.replace("{tag}", tag).as_bytes());
            }
        });
        port
    }

    fn imap(port: u16, security: Security) -> ImapConfig {
        ImapConfig {
            host: "127.0.0.1".into(),
            port,
            security,
            username: "umpire".into(),
            password: "pw".into(),
            mailbox: "INBOX".into(),
        }
    }

    fn smtp_test(port: u16, security: Security) -> TransportError {
        let cfg = ServerConfig {
            host: "127.0.0.1".into(),
            port,
            security,
            username: Some("umpire".into()),
            password: Some("pw".into()),
        };
        Outlet::smtp(&cfg)
            .and_then(|o| o.test())
            .expect_err("the server refuses")
    }

    /// A port on 127.0.0.1 nothing listens on.
    fn closed_port() -> u16 {
        TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    #[test]
    fn a_server_not_reached_is_connect_trouble() {
        let port = closed_port();
        assert_eq!(
            reach("127.0.0.1", port).unwrap_err().trouble(),
            Trouble::Connect
        );
        let e = imap_check(&imap(port, Security::None)).unwrap_err();
        assert_eq!(e.trouble(), Trouble::Connect, "{e}");
        let e = smtp_test(port, Security::None);
        assert_eq!(e.trouble(), Trouble::Connect, "{e}");
    }

    #[test]
    fn tls_spoken_to_a_plain_port_is_tls_trouble() {
        let port = scripted("* OK plain IMAP here\r\n", &[]);
        let e = imap_check(&imap(port, Security::Tls)).unwrap_err();
        assert_eq!(e.trouble(), Trouble::Tls, "{e}");
        let port = scripted("220 plain SMTP here\r\n", &[]);
        let e = smtp_test(port, Security::Tls);
        assert_eq!(e.trouble(), Trouble::Tls, "{e}");
    }

    #[test]
    fn a_refused_login_is_authentication_trouble() {
        let port = scripted(
            "* OK ready\r\n",
            &["{tag} NO [AUTHENTICATIONFAILED] Authentication failed.\r\n"],
        );
        let e = imap_check(&imap(port, Security::None)).unwrap_err();
        assert_eq!(e.trouble(), Trouble::Authentication, "{e}");
        let port = scripted(
            "220 ready\r\n",
            &[
                "250-hello\r\n250 AUTH PLAIN LOGIN\r\n",
                "535 5.7.8 Authentication credentials invalid\r\n",
            ],
        );
        let e = smtp_test(port, Security::None);
        assert_eq!(e.trouble(), Trouble::Authentication, "{e}");
    }

    #[test]
    fn a_missing_mailbox_is_other_trouble() {
        let port = scripted(
            "* OK ready\r\n",
            &[
                "{tag} OK logged in\r\n",
                "{tag} NO Mailbox doesn't exist: INBOX\r\n",
            ],
        );
        let e = imap_check(&imap(port, Security::None)).unwrap_err();
        assert_eq!(e.trouble(), Trouble::Other, "{e}");
        let port = scripted("554 no service here\r\n", &[]);
        let e = smtp_test(port, Security::None);
        assert_eq!(e.trouble(), Trouble::Other, "{e}");
    }

    #[test]
    fn spool_is_idempotent_per_message_id() {
        let dir = tempfile::tempdir().unwrap();
        let out = Outlet::Spool {
            dir: dir.path().to_path_buf(),
            durable: true,
        };
        out.deliver("u@x", &["p@y".into()], "abc/1@x", b"one")
            .unwrap();
        out.deliver("u@x", &["p@y".into()], "abc/1@x", b"one")
            .unwrap();
        let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(files.len(), 1);
        assert_eq!(spool_file_name("abc/1@x"), "abc_1_x.eml");
    }

    #[test]
    fn a_durable_spool_settles_its_folder_and_says_when_it_cannot() {
        let dir = tempfile::tempdir().unwrap();
        let spool = dir.path().join("out");
        let out = Outlet::Spool {
            dir: spool.clone(),
            durable: true,
        };
        out.deliver("u@x", &["p@y".into()], "a@x", b"one").unwrap();
        out.settle().unwrap();
        assert_eq!(std::fs::read(spool.join("a_x.eml")).unwrap(), b"one");
        std::fs::remove_dir_all(&spool).unwrap();
        let err = out.settle().unwrap_err().to_string();
        assert!(err.contains("out"), "names the folder: {err}");
        // A spool that need not be durable has nothing to settle.
        let loose = Outlet::Spool {
            dir: spool,
            durable: false,
        };
        loose.settle().unwrap();
    }

    #[test]
    fn maildir_messages_move_to_cur_when_seen() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("new")).unwrap();
        std::fs::write(dir.path().join("new/2.b"), "b").unwrap();
        std::fs::write(dir.path().join("new/1.a"), "a").unwrap();
        let files = maildir_new(dir.path()).unwrap();
        assert_eq!(files.len(), 2);
        assert!(files[0].ends_with("1.a"));
        maildir_mark_seen(dir.path(), &files[0]).unwrap();
        assert_eq!(maildir_new(dir.path()).unwrap().len(), 1);
        assert!(dir.path().join("cur/1.a:2,S").exists());
    }
}
