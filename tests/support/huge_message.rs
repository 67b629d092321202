//! A message with orders, a long quoted thread and a big base64 attachment,
//! for the reader's size tests (tests/post/mail_corpus.rs) and its bench
//! (benches/mail_parse.rs).

/// A message of about `attachment_bytes` bytes whose orders come first.
pub fn huge_message(attachment_bytes: usize) -> Vec<u8> {
    let mut raw = b"From: Conan <conan@aquilonia.example>\r\nTo: umpire@valkia.example\r\nSubject: orders with the whole campaign diary\r\nMessage-ID: <huge.1@aquilonia.example>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"huge\"\r\n\r\n--huge\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nGAME valkia SIDE aquilonia PASSWORD dragon7\r\nBlack Dragons: phase 1 charge Nemedian Knights\r\nEND\r\n\r\n".to_vec();
    // A long quoted thread below the orders.
    for i in 0..20_000 {
        raw.extend_from_slice(
            format!("> turn {i}: Black Dragons: phase 1 charge Nemedian Knights\r\n").as_bytes(),
        );
    }
    raw.extend_from_slice(b"--huge\r\nContent-Type: application/octet-stream; name=\"diary.bin\"\r\nContent-Disposition: attachment; filename=\"diary.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n");
    let line = b"QmxhY2sgRHJhZ29uczogcGhhc2UgMSBjaGFyZ2UgTmVtZWRpYW4gS25pZ2h0cyBhbmQgd2luIQ==\r\n";
    while raw.len() < attachment_bytes {
        raw.extend_from_slice(line);
    }
    raw.extend_from_slice(b"--huge--\r\n");
    raw
}
