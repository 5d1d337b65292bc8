// Temporary: times indexing evidence of growing size.
use llmjson::Evidence;
fn line(i: usize) -> String {
    format!(
        "Amostra {i}: resistência {}.{} MPa, alongamento {},{} %, custo R$ {}.{:03},{:02}, lote L-{i}.\n",
        30 + i % 20, i % 10, 5 + i % 15, i % 10, 1 + i % 9, i % 1000, i % 100
    )
}
fn answer_text(bytes: usize) -> String {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&format!(
            "Segundo o relatório, a amostra {i} atingiu {}.{} MPa com alongamento de {},{} %. ",
            30 + i % 20, i % 10, 5 + i % 15, i % 10
        ));
        i += 10;
    }
    out
}
fn main() {
    if std::env::args().nth(1).as_deref() == Some("verify") {
        let mut s = String::new();
        let mut i = 0;
        while s.len() < 1 << 20 { s.push_str(&line(i)); i += 1; }
        let mut e = Evidence::new();
        e.add_text("r", &s).unwrap();
        let a = answer_text(20 << 10);
        let reps: usize = std::env::var("REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
        for _ in 0..reps {
            let t = std::time::Instant::now();
            let v = llmjson::verify(&a, &e, &llmjson::VerifyOptions::default()).unwrap();
            println!("verify: {:?} ({} numbers, verified {})", t.elapsed(), v.verification.numbers_extracted, v.verification.verified);
        }
        return;
    }
    for kb in [64usize, 128, 256, 512, 1024] {
        let mut s = String::new();
        let mut i = 0;
        while s.len() < kb << 10 { s.push_str(&line(i)); i += 1; }
        let t = std::time::Instant::now();
        let mut e = Evidence::new();
        e.add_text("r", &s).unwrap();
        println!("{kb} KB: {:?}", t.elapsed());
    }
}
// (verify timing appended below)
