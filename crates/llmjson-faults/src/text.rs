//! Pools of string contents: prose in many languages and scripts, and the contents that make
//! strings hard (quotes, code, paths, links, line breaks).

use crate::rng::Rng;

const PLAIN: &[&str] = &[
    // English
    "Buy milk and eggs before noon",
    "The meeting moved to Thursday at 10am",
    "Refactor the parser into smaller modules",
    "Revenue grew 12% year over year",
    "No further action is needed",
    "Check the logs for timeout errors",
    "Ship the release after the QA sign-off",
    "Customer asked for a refund on order 4471",
    "Summarise the attached report in three bullet points",
    "Temperature dropped to -3.5 degrees overnight",
    "Use the staging database for this test",
    "Step 2: install the dependencies",
    "Fix: retry when the upstream returns 503",
    "Note: the API key expires on 2026-12-01",
    "Q3 results are better than expected; margins are up",
    // Portuguese, Spanish, French, German, Italian
    "Reunião às 15h com a equipe de produto",
    "Não há dados suficientes para concluir",
    "Ação necessária: revisar o contrato até sexta-feira",
    "El envío llegará mañana por la tarde",
    "Señor Müller pidió una reunión",
    "Le rapport est prêt à être relu",
    "Crème brûlée et café au lait",
    "Die Lieferung verzögert sich um zwei Tage",
    "Größe und Gewicht prüfen",
    "La consegna è prevista per lunedì",
    // CJK
    "会議は午後三時に始まります",
    "東京都渋谷区神南一丁目",
    "ファイルを正規化して保存する",
    "今天天气很好，我们去公园吧",
    "请在周五之前提交报告",
    "데이터베이스 연결을 확인하세요",
    "서울특별시 강남구",
    // Cyrillic, Greek
    "Отчёт готов к отправке",
    "Привет, мир: всё работает",
    "Проверьте журнал ошибок сервера",
    "Καλημέρα σε όλους",
    // Right-to-left
    "مرحبا بالعالم",
    "تم إرسال الطلب بنجاح",
    "שלום עולם, הכל תקין",
    "הפגישה נדחתה למחר",
    // Indic, Thai, Vietnamese, Turkish
    "नमस्ते, आपका ऑर्डर तैयार है",
    "สวัสดีครับ ยินดีต้อนรับ",
    "Xin chào, đơn hàng đã được giao",
    "Sipariş yarın teslim edilecek, teşekkürler",
    // Emoji and symbols
    "Great job team 🎉🚀",
    "Status: ✅ passed, ⚠️ 2 warnings",
    "Price: €12.50 (≈ $13.40)",
    "Rated ★★★★☆ by 1,204 users",
    "Launch 🚀 at T-minus 10 — ready?",
];

const WORDS: &[&str] = &[
    "done", "pending", "active", "approved", "rejected", "draft", "ok", "high", "low", "medium",
    "python", "shell", "browser", "search", "blue", "green", "admin", "guest", "monthly", "weekly",
    "en", "pt_BR", "ja", "retry", "skip", "success", "failure", "queued", "north",
];

const MULTIWORD_BARE: &[&str] = &[
    "in progress",
    "not started",
    "needs review",
    "San Francisco",
    "New York",
    "dark mode",
    "very high",
    "東京",
    "São Paulo",
    "Zürich",
    "Ελλάδα",
    "Москва",
];

/// Text with ASCII double quotes inside, as a model writes it (the quotes are meant as text).
const QUOTED: &[&str] = &[
    "He said \"yes\" to the offer",
    "Use the \"fast\" path when the cache is warm",
    "The book \"Dom Casmurro\" was published in 1899",
    "She replied \"not today\" and left",
    "Click \"Save\" and then \"Publish\"",
    "see [docs](\"https://example.com/x\") first",
    "read [the guide](\"https://example.com/guide/start\") before you begin",
    "<a href=\"/docs\">documentation</a> is linked",
    "wrap it in <div class=\"note\">a note</div> please",
    "Label the column \"Total (EUR)\" in the sheet",
    "O cliente disse \"obrigado\" ao final",
    "彼は「はい」と言った、英語では \"yes\" です",
    "Он ответил \"да\" без колебаний",
    "The error was \"connection refused\" on port 5432",
    "Set the flag to \"on\" in production only",
];

/// Source code as models put it in `content` fields: quotes, brackets, backslashes, newlines.
const CODE: &[&str] = &[
    "print(\"hello\")",
    "log(\"key: %s\", k)",
    "s = \"x\"\n",
    "p = \"C:\\Users\\me\"\nx = 1",
    "if x == \"a\":\n    return \"b\"\n",
    "console.log(\"done\", count);",
    "const url = \"https://example.com/api\";\nfetch(url);",
    "SELECT name FROM users WHERE city = \"Lisboa\";",
    "echo \"build finished\" >> log.txt",
    "d = {\"a\": 1}\nprint(d[\"a\"])",
    "raise ValueError(\"bad input: \" + str(v))",
    "msg = f\"{name} has {n} items\"\n",
    "for k in [\"a\", \"b\"]:\n    print(k)\n",
    "import os\npath = os.path.join(\"data\", \"in.csv\")\n",
    "def greet(name):\n    return \"Hello, \" + name\n",
    "assert parse(\"[1, 2]\") == [1, 2]",
    "let s = \"tab\\there\";",
];

/// Code without any double quote (safe for faults that only touch line breaks).
const CODE_NO_QUOTES: &[&str] = &[
    "def add(a, b):\n    return a + b\n",
    "for i in range(3):\n    total += i\n",
    "x = [1, 2, 3]\ny = sum(x)\n",
    "fn main() {\n    run();\n}\n",
    "SELECT id, name\nFROM users\nWHERE active = 1;",
    "if (ok) {\n  next();\n}",
];

const MULTILINE: &[&str] = &[
    "Dear team,\nthe release is ready.\nThanks!",
    "Line one\nLine two\nLine three",
    "Resumo:\n- item 1\n- item 2",
    "概要：\n1. 準備\n2. 実行",
    "Address:\n221B Baker Street\nLondon",
    "Step 1: clone\nStep 2: build\tthen test",
];

const PATHS: &[&str] = &[
    "C:\\Users\\me\\report.txt",
    "D:\\data\\2026\\q3.csv",
    "C:\\Program Files\\App\\config.ini",
    "\\\\server\\share\\notes.md",
];

const URLS: &[&str] = &[
    "https://example.com/a/b?x=1&y=2",
    "https://docs.example.org/guide#install",
    "http://localhost:8080/health",
    "https://例え.jp/パス",
];

const NAMES: &[&str] = &[
    "Ana Souza",
    "João Silva",
    "Mary O'Brien",
    "Li Wei",
    "山田太郎",
    "Müller",
    "Zoë Dupont",
    "Олег Петров",
    "Fatima Zahra",
    "Dvir Cohen",
    "José Álvarez",
    "Kim Min-jun",
    "Ngozi Okafor",
];

const CITIES: &[&str] = &[
    "Lisboa",
    "São Paulo",
    "Tokyo",
    "東京",
    "Berlin",
    "Zürich",
    "Москва",
    "القاهرة",
    "Paris",
    "New York",
    "Mumbai",
    "Seoul",
];

/// One line of prose said before or after the JSON, in many languages.
pub const PROSE_BEFORE: &[&str] = &[
    "Here is the JSON you asked for:",
    "Sure! Here's the result:",
    "以下がJSONです:",
    "Aqui está o plano:",
    "Voici la réponse :",
    "Вот результат:",
    "Claro, aquí tienes:",
    "The extracted record is below.",
];

/// One line of prose said after the JSON.
pub const PROSE_AFTER: &[&str] = &[
    "Let me know if you need anything else.",
    "補足説明です。",
    "Espero que ajude!",
    "Hope this helps 🙂",
    "Note: the dates are in UTC.",
    "Если нужно, могу уточнить.",
];

/// What a string holds: each fault picks the kind it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// A sentence in one of many languages, no quotes.
    Plain,
    /// A single word (statuses, enum-like values).
    Word,
    /// Several plain words that read well unquoted.
    BareWords,
    /// Text with ASCII double quotes that are meant as text.
    Quoted,
    /// Source code (quotes, brackets, backslashes, line breaks).
    Code,
    /// Source code without double quotes.
    CodeNoQuotes,
    /// Text over several lines.
    Multiline,
    /// A Windows path (backslashes).
    Path,
    /// A URL.
    Url,
    /// A person's name.
    Name,
    /// A city.
    City,
}

/// A content of the given kind.
pub fn text(rng: &mut Rng, kind: TextKind) -> String {
    let pool = match kind {
        TextKind::Plain => PLAIN,
        TextKind::Word => WORDS,
        TextKind::BareWords => MULTIWORD_BARE,
        TextKind::Quoted => QUOTED,
        TextKind::Code => CODE,
        TextKind::CodeNoQuotes => CODE_NO_QUOTES,
        TextKind::Multiline => MULTILINE,
        TextKind::Path => PATHS,
        TextKind::Url => URLS,
        TextKind::Name => NAMES,
        TextKind::City => CITIES,
    };
    rng.pick(pool).to_string()
}

/// A comment's text (may hold quotes, slashes and non-ASCII text).
pub fn comment(rng: &mut Rng) -> String {
    const COMMENTS: &[&str] = &[
        "TODO: confirm with the user",
        "コメント: 後で確認",
        "valores em reais",
        "the \"id\" must be unique",
        "see https://example.com/spec",
        "étape suivante",
        "не менять",
        "optional field",
    ];
    rng.pick(COMMENTS).to_string()
}

/// Whether `content` is one of the source-code contents.
pub fn is_code(content: &str) -> bool {
    CODE.contains(&content) || CODE_NO_QUOTES.contains(&content)
}

/// Whether `content` holds quotes meant as text (quoted speech, HTML, links).
pub fn is_quoted_text(content: &str) -> bool {
    QUOTED.contains(&content)
}
