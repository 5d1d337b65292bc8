//! The verify benchmark's inputs: a lab report with a number every few words (the evidence) and an
//! answer quoting every tenth line. Shared by `benches/verify.rs` and `examples/verify_profile.rs`.

/// A report line in the style of seed 004's measurements; `i` varies every number.
fn line(i: usize) -> String {
    format!(
        "Amostra {i}: resistência {}.{} MPa, alongamento {},{} %, custo R$ {}.{:03},{:02}, lote L-{i}.\n",
        30 + i % 20,
        i % 10,
        5 + i % 15,
        i % 10,
        1 + i % 9,
        i % 1000,
        i % 100
    )
}

/// A report of about `bytes` bytes, one line per sample.
pub fn evidence_text(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 128);
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&line(i));
        i += 1;
    }
    out
}

/// An answer quoting numbers from the evidence (every tenth line), with prose between.
pub fn answer_text(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 256);
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&format!(
            "Segundo o relatório, a amostra {i} atingiu {}.{} MPa com alongamento de {},{} %. ",
            30 + i % 20,
            i % 10,
            5 + i % 15,
            i % 10
        ));
        i += 10;
    }
    out
}
