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
    // Code holding a JSON literal (see [`CODE_WITH_JSON`]).
    "payload = '{\"nested\": \"json in a string\", \"n\": [1, 2, 3]}'\nobj = json.loads(payload)\n",
    "const cfg = JSON.parse('{\"debug\": true, \"level\": \"info\"}');",
    "INSERT INTO events (doc) VALUES ('{\"id\": 7, \"tags\": [\"a\", \"b\"]}');",
    "curl -s -d '{\"name\": \"Ana\", \"ok\": true}' https://api.example.com/v1/users",
];

/// Code that prints a quoted label ending in a colon, then a comma and a value
/// (`console.log("total:", n)`), over several lines: written into a JSON string with its quotes
/// and line breaks raw, `"total:", ` reads like a key and the next member. Only the laid-out
/// plans of [`crate::large_code_case`] carry these (the small replies keep their schedule).
pub(crate) const CODE_WITH_LABELS: &[&str] = &[
    "const n = items.length;\nconsole.log(\"total:\", n);\nreturn n;",
    "for (const row of rows) {\n  console.log(\"row:\", row.id, \"status:\", row.status);\n}",
    "print(\"count:\", len(xs))\nprint(\"first:\", xs[0])",
    "if err != nil {\n\tfmt.Println(\"error:\", err)\n\treturn err\n}",
    "logger.info(\"saved:\", path)\nlogger.debug(\"size:\", os.path.getsize(path))",
];

/// Code that holds a JSON literal in a string of its own language (Python, JavaScript, SQL,
/// shell): written into a JSON string with its quotes unescaped, the literal's quotes, commas,
/// colons and brackets look like the document's own structure.
pub(crate) const CODE_WITH_JSON: &[&str] = &[
    "payload = '{\"nested\": \"json in a string\", \"n\": [1, 2, 3]}'\nobj = json.loads(payload)\n",
    "const cfg = JSON.parse('{\"debug\": true, \"level\": \"info\"}');\nconsole.log(cfg.level);\n",
    "INSERT INTO events (doc) VALUES ('{\"id\": 7, \"tags\": [\"a\", \"b\"]}');",
    "curl -s -d '{\"name\": \"Ana\", \"ok\": true}' https://api.example.com/v1/users",
    "requests.post(url, data='{\"q\": \"status\", \"limit\": 10}')",
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
    /// Code, JSON, paths, speech and apostrophes: hard to write in single quotes.
    SingleQuotedHard,
    /// Maths in LaTeX (`$\frac{a}{b} + \beta$`), every command a reader can tell from a JSON
    /// escape: the collisions (`\frac`, `\beta`, `\theta`, `\nabla`, `\rho`, `\times`, `\to`)
    /// where the string shows maths.
    Maths,
    /// Tables and lists with real tabs and line breaks, some before letters that spell a LaTeX
    /// command (`"Fruit\tan apple"`, `"Total:\nu-values"`): no maths, so they stay.
    Controls,
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
        TextKind::SingleQuotedHard => SINGLE_QUOTED_HARD,
        TextKind::Maths => MATHS,
        TextKind::Controls => CONTROLS,
    };
    rng.pick(pool).to_string()
}

/// Maths as models answer it, one backslash per command (written into JSON as is by the
/// LaTeX class): `$…$`, `\(…\)`, `\[…\]`, `\begin{…}`, and the commands that collide with
/// JSON's escapes. No `\\`, no `\u…` command: a reader cannot tell what those meant.
pub const MATHS: &[&str] = &[
    r"$\frac{a}{b} + \beta$",
    r"$\alpha + \beta$",
    r"$\alpha + \beta = \gamma$",
    r"The derivative is $\frac{d}{dx} x^2 = 2x$",
    r"$\theta = \arctan(y/x)$",
    r"$x \to \infty$ gives $\frac{1}{x} \to 0$",
    r"$\nabla \cdot \mathbf{E} = \frac{\rho}{\varepsilon_0}$",
    r"$a \times b \neq b \times a$",
    r"$\binom{n}{k} = \frac{n!}{k!(n-k)!}$",
    r"\(\tau = r \times F\)",
    r"\[\sum_{i=1}^{n} i = \frac{n(n+1)}{2}\]",
    r"$\left( \frac{1}{2} \right)^2$",
    r"$\sqrt{x} \leq \frac{x+1}{2}$",
    r"Use $\tan\theta = \frac{\sin\theta}{\cos\theta}$",
    r"$\text{speed} = \frac{\text{distance}}{\text{time}}$",
    r"$\forall x \in \mathbb{R}, x^2 \geq 0$",
    r"$f(x) = \begin{cases} 1 & x > 0 \end{cases}$",
    r"$\rho = \frac{m}{V}$",
    r"$\nu = \frac{c}{\lambda}$",
    r"$\mu \pm \sigma$",
    r"$E = mc^2$ where $\beta = v/c$",
    r"$\boldsymbol{v} \cdot \boldsymbol{w}$",
    r"$\overline{x} = \frac{1}{n}\sum x_i$",
    r"$\lim_{n \to \infty} (1 + \frac{1}{n})^n = e$",
    r"$\triangle ABC \cong \triangle DEF$",
    r"$p \Rightarrow q$ and $\neg q$, therefore $\neg p$",
    r"$\int_0^1 t \, dt = \frac{1}{2}$",
    r"$\tilde{x} \approx \hat{x}$",
    r"$\bar{x} \pm 1.96 \frac{s}{\sqrt{n}}$",
    r"$\theta_1 + \theta_2 = \pi$",
    r"\begin{pmatrix} \cos\theta & -\sin\theta \end{pmatrix}",
    r"$\vec{F} = m\vec{a}$, so $\tau = \vec{r} \times \vec{F}$",
    r"$\rightarrow$ the limit is $\frac{\pi}{4}$",
    r"$\text{if } \, x \notin A$ then $\neg P(x)$",
    r"Time: $t = \frac{d}{v}$, with $\Delta t \to 0$",
];

/// Tables and lists with real tabs and line breaks (written as `\t`, `\n`): some put the
/// letters of a LaTeX command right after an escape (`\tan`, `\nu`, `\to`) with no maths
/// anywhere, which must stay tabs and line breaks.
pub const CONTROLS: &[&str] = &[
    "Name\tScore\nAna\t91\nBo\t78",
    "Send\tto the team",
    "Fruit\tan apple\nVeg\ta carrot",
    "Step 1\tneg control\nStep 2\tpos control",
    "Total:\nu-values checked",
    "Q3\tto do\nQ4\tdone",
    "a\tb\tc\n1\t2\t3",
    "Line one\nnot this one",
    "Price\t$5\nTax\t$1",
    "x\ty\nrho\tdensity",
    "Header\ntext follows",
    "Col\tan\tbn",
    "\tindented\n\ttwice",
    "Go\nto the store\nbuy milk",
    "id\ttimes\n1\t3",
];

/// What models put in strings that Python's `repr` or JavaScript write in single quotes: code,
/// JSON, Windows paths, quoted speech, apostrophes, backslashes, line breaks and tabs. These are
/// the contents that make a single-quoted string hard to read (`'print("x")\n'`, `'it\'s'`,
/// `'payload = \'{"a": 1}\''`).
const SINGLE_QUOTED_HARD: &[&str] = &[
    "print(\"x\")\n",
    "He said \"no\"",
    "it's",
    "payload = '{\"a\": 1}'",
    "{\"a\": 1, \"b\": [1, 2]}",
    "[{\"id\": 7, \"ok\": true}]",
    "C:\\Users\\me\\report.txt",
    "Don't use \"eval\" here",
    "echo \"it's done\"",
    "re.compile(r\"\\d+\")",
    "l'été est chaud",
    "Mary O'Brien",
    "line one\nline two",
    "tab\there",
    "{'nested': 'python dict'}",
    "<a href=\"/docs\">docs</a>",
    "json.dumps({\"k\": \"v\"})",
    "payload = '{\"nested\": \"json\", \"n\": [1, 2]}'\nobj = json.loads(payload)\n",
    "JSON.parse('{\"debug\": true, \"level\": \"info\"}')",
    "INSERT INTO t (doc) VALUES ('{\"id\": 7}');",
    "const s = 'single';",
    "msg = \"Hello, \" + name",
    "ends with a backslash \\",
    "he said: \"it's fine\"",
    "d['key'] = \"value\"\nprint(d)",
    "if x == 'a':\n    return \"b\"\n",
    "SELECT * FROM t WHERE name = 'Ana';",
    "{\"query\": \"weather\", \"limit\": 5}",
    "'quoted' at both ends'",
    "O cliente disse \"obrigado\", não 'valeu'",
    "彼は\"はい\"と言った",
    "a\\b\\c",
    "x = {'a': [1, 2], 'b': None}",
];

/// Prose that models write in comments: notes, explanations, translations, in several scripts
/// and lengths (a word, a sentence, a paragraph that is most of a small reply). Apostrophes
/// and other punctuation occur as prose has them.
const COMMENT_PROSE: &[&str] = &[
    "TODO",
    "optional",
    "in UTC",
    "ISO 8601",
    "valores em reais",
    "単位: 円",
    "не менять",
    "facultatif",
    "필수 항목",
    "必填字段",
    "default",
    "can be null",
    "the id must be unique across all records",
    "Aqui está o plano revisado conforme solicitado",
    "ここはユーザーが後で変更できます",
    "Это значение по умолчанию для продакшена",
    "Ce champ est rempli automatiquement par le système",
    "don't change this, it's computed server-side",
    "l'utilisateur peut le modifier à tout moment",
    "El campo es opcional; si falta, se usa el valor por defecto",
    "Note: these values come from the Q3 report and may change after the audit is finished. If you need the final numbers, ask finance; until then treat them as estimates, not commitments.",
    "Explicação: cada passo depende do anterior. Se um passo falhar, o plano deve ser revisado antes de continuar, e o usuário precisa aprovar a nova versão. Os tempos estão em minutos e incluem a revisão.",
    "説明：このフィールドはシステムによって自動的に設定されます。ユーザーが手動で変更した場合、次回の同期で上書きされる可能性があります。変更が必要な場合は管理者に連絡してください。",
    "这个配置用于生产环境。修改之前请先在测试环境中验证，并通知运维团队。所有数值的单位都是毫秒，除非另有说明。",
    "Пояснение: список отсортирован по приоритету, первые три пункта обязательны, остальные можно отложить до следующего релиза, если не хватит времени.",
    "I kept the structure you asked for, but I'm not sure about the second step: the tool it uses may not exist in your environment, so you might want to replace it with a shell command.",
];

/// Comments that hold quotes: quoted words, apostrophes, a quoted key in prose (`"this":`),
/// a list of quoted values (`"a", "b"`): marks that JSON also has, written as prose.
const COMMENT_QUOTED: &[&str] = &[
    "the \"id\" must be unique",
    "set \"mode\" to \"fast\" in production",
    "don't rename 'status'",
    "use \"ISO\" dates, e.g. \"2026-01-31\"",
    "値は \"円\" 単位",
    "o campo \"nome\" é obrigatório",
    "\"fast\" is the default; \"safe\" is slower",
    "he said \"it's fine\", so we keep it",
    "' is an apostrophe, \" a quote",
    "wrapped like \"this\": see the docs",
    "values: \"a\", \"b\" or \"c\"",
    "l'ordre compte : \"premier\" avant \"second\"",
    "it's the user's \"primary\" key",
    "`code` and 'single' and \"double\"",
    "「重要」: don't remove",
];

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

/// A prose comment's text (`quoted`: one that holds quotes).
pub fn comment_text(rng: &mut Rng, quoted: bool) -> String {
    let pool = if quoted {
        COMMENT_QUOTED
    } else {
        COMMENT_PROSE
    };
    rng.pick(pool).to_string()
}

/// Whether `content` is one of the source-code contents.
pub fn is_code(content: &str) -> bool {
    CODE.contains(&content)
        || CODE_NO_QUOTES.contains(&content)
        || CODE_WITH_JSON.contains(&content)
        || CODE_WITH_LABELS.contains(&content)
}

/// Whether `content` holds quotes meant as text (quoted speech, HTML, links).
pub fn is_quoted_text(content: &str) -> bool {
    QUOTED.contains(&content)
}
