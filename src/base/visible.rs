//! Text for a terminal: control characters shown, not obeyed.

/// `buf` with C0 controls (but newline and tab), DEL and C1 controls (U+0080–U+009F, as
/// UTF-8 `C2 80`–`C2 9F`) replaced by U+FFFD. Bytewise: UTF-8 never uses bytes below 0x80
/// inside a multi-byte character.
pub fn visible(buf: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    const SHOWN: &[u8] = "\u{FFFD}".as_bytes();
    let control = |i: usize| match buf[i] {
        b'\n' | b'\t' => 0,
        0..0x20 | 0x7f => 1,
        0xc2 if buf.get(i + 1).is_some_and(|b| (0x80..0xa0).contains(b)) => 2,
        _ => 0,
    };
    if !(0..buf.len()).any(|i| control(i) > 0) {
        return std::borrow::Cow::Borrowed(buf);
    }
    let mut out = Vec::with_capacity(buf.len() + 8);
    let mut i = 0;
    while i < buf.len() {
        match control(i) {
            0 => {
                out.push(buf[i]);
                i += 1;
            }
            n => {
                out.extend_from_slice(SHOWN);
                i += n;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}
