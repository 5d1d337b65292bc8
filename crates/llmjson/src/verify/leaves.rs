//! The strings and numbers of a JSON value, each with its pointer and what its place binds it
//! to: its key among its object's keys, its object's key among its parent's, and an array
//! item's names (`{"region": "North", …}`) among the array's items; with the unit, currency and
//! scale its key states (`output_mwh`, `revenue_eur_m`). What the verify stage checks in a value,
//! and indexes in JSON evidence.

use super::frame::{self, Spec};
use super::layout::{self, Bind};
use crate::value::Value;

/// A leaf of a JSON value that can state numbers.
pub(crate) enum Leaf {
    /// A string's text.
    Text(String),
    /// A number's exact digits.
    Number(String),
}

/// A leaf, where it is, and what binds it.
pub(crate) struct LeafItem {
    /// Its JSON Pointer.
    pub path: String,
    pub leaf: Leaf,
    pub binds: Vec<Bind>,
    /// What its key says of its unit.
    pub spec: Spec,
    /// Its key names a year (`"year": 2023`): the number is a date, not a quantity.
    pub year_key: bool,
    /// Its key names a loss or a fall (`net_loss`, `mean_systolic_reduction`).
    pub negative: bool,
}

/// Visits every string and number of `value` in document order (an explicit stack: no
/// recursion). `salt` keeps this value's dimensions apart from other sources'.
pub(crate) fn walk_leaves<E>(
    value: &Value,
    salt: u64,
    mut visit: impl FnMut(LeafItem) -> Result<(), E>,
) -> Result<(), E> {
    struct Frame<'v> {
        path: String,
        shape: String,
        value: &'v Value,
        binds: Vec<Bind>,
        key: Option<String>,
        /// Which of `binds` are the keys of the objects above (not an array's item names).
        key_binds: Vec<usize>,
    }
    let mut stack = vec![Frame {
        path: String::new(),
        shape: String::new(),
        value,
        binds: Vec::new(),
        key: None,
        key_binds: Vec::new(),
    }];
    let mut keys: Vec<LeafItem> = Vec::new();
    while let Some(f) = stack.pop() {
        for k in keys.drain(..) {
            visit(k)?;
        }
        match f.value {
            Value::String(s) => {
                let spec = f.key.as_deref().map(frame::key_spec).unwrap_or_default();
                visit(LeafItem {
                    path: f.path,
                    leaf: Leaf::Text(s.to_string()),
                    binds: f.binds,
                    spec,
                    year_key: false,
                    negative: false,
                })?;
            }
            Value::Number(n) => {
                let spec = f.key.as_deref().map(frame::key_spec).unwrap_or_default();
                let year_key = f.key.as_deref().is_some_and(year_key);
                let negative = f
                    .key
                    .as_deref()
                    .is_some_and(|k| layout::direction_outside_parens(&key_words(k)) == Some(true));
                visit(LeafItem {
                    path: f.path,
                    leaf: Leaf::Number(n.to_string()),
                    binds: f.binds,
                    spec,
                    year_key,
                    negative,
                })?;
            }
            Value::Array(items) => {
                let shape = format!("{}/*", f.shape);
                let dim = mix(salt, &f.shape);
                for (i, item) in items.iter().enumerate().rev() {
                    let mut binds = f.binds.clone();
                    let (names, names_text) = item_names(item);
                    if !names.is_empty() {
                        binds.push(Bind::label(dim, names, Some(names_text.into())));
                    }
                    stack.push(Frame {
                        path: format!("{}/{i}", f.path),
                        shape: shape.clone(),
                        value: item,
                        binds,
                        key: f.key.clone(),
                        key_binds: f.key_binds.clone(),
                    });
                }
            }
            Value::Object(map) => {
                let dim = mix(salt, &f.shape);
                for (k, item) in map.iter().rev() {
                    let token = crate::value::pointer_token(k);
                    // A key's own quantities (`"140 °C": {…}`) are evidence too.
                    // So is a period glued into a key's words (`adherence_90d_rate`: 90 days).
                    // (The key's words, read once: for this and for its label below.)
                    let plain = key_words(k);
                    let words = glued_periods(&plain);
                    let glued = k.contains('_') && words != plain;
                    if k.bytes().any(|c| c.is_ascii_digit()) && !k.contains('_') || glued {
                        keys.push(LeafItem {
                            path: format!("{}/{token}", f.path),
                            leaf: Leaf::Text(if glued { words.clone() } else { k.to_string() }),
                            binds: f.binds.clone(),
                            spec: Spec::default(),
                            year_key: false,
                            negative: false,
                        });
                    }
                    let mut binds = f.binds.clone();
                    let mut key_binds = f.key_binds.clone();
                    let atoms = layout::text_atoms(&key_label(k, words));
                    if !atoms.is_empty() {
                        // An object's key labels, among its siblings, what lies below it too:
                        // `"overnight": {"buses_charged": 61}` is the overnight buses charged,
                        // against `"chargers": 24` beside it.
                        for &i in &key_binds {
                            let b = &mut binds[i];
                            let mut union: Vec<layout::Atom> = b.atoms.to_vec();
                            union.extend(atoms.iter().filter(|a| !b.atoms.contains(a)).cloned());
                            b.atoms = union.into();
                        }
                        key_binds.push(binds.len());
                        binds.push(Bind::label(dim, atoms, Some(k.as_str().into())));
                    }
                    stack.push(Frame {
                        path: format!("{}/{token}", f.path),
                        shape: format!("{}/{token}", f.shape),
                        value: item,
                        binds,
                        key: Some(k.to_string()),
                        key_binds,
                    });
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
    }
    for k in keys.drain(..) {
        visit(k)?;
    }
    Ok(())
}

/// A key's words: `inbound_teu` → `inbound teu`, `pvProduktion` → `pv Produktion`.
/// A key's words as a label: without the unit its value is in when a number comes before it
/// (`scope_2_t` is scope 2, in tonnes: not 2 t).
/// `words`: the key's words with their periods written apart ([`glued_periods`]).
fn key_label(key: &str, words: String) -> String {
    let parts: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
    match parts[..] {
        [.., number, _unit]
            if parts.len() >= 3
                && number.bytes().all(|c| c.is_ascii_digit())
                && !frame::key_spec(key).is_empty() =>
        {
            parts[..parts.len() - 1].join(" ")
        }
        _ => words,
    }
}

/// A key's period glued to its number, written apart (`adherence 90d rate` → `adherence 90 d
/// rate`, `24h` → `24 h`; `tasa adherencia 6m` → `6 mo`: in a key, `6m`, `12m` are months).
fn glued_periods(words: &str) -> String {
    let mut out = String::with_capacity(words.len() + 8);
    for (i, w) in words.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let digits = w.bytes().take_while(u8::is_ascii_digit).count();
        let (number, unit) = w.split_at(digits);
        let period = match unit {
            "d" => Some("d"),
            "h" => Some("h"),
            "w" | "wk" => Some("wk"),
            "mo" => Some("mo"),
            "m" if matches!(
                number,
                "1" | "2" | "3" | "6" | "9" | "12" | "18" | "24" | "36"
            ) =>
            {
                Some("mo")
            }
            "y" | "yr" => Some("yr"),
            _ => None,
        };
        match period.filter(|_| digits > 0 && digits <= 3) {
            Some(p) => {
                out.push_str(number);
                out.push(' ');
                out.push_str(p);
            }
            None => out.push_str(w),
        }
    }
    out
}

fn key_words(key: &str) -> String {
    // A key written as words is read as written (`2.º trimestre de 2024`).
    if key.contains(' ') {
        return key.to_string();
    }
    let mut out = String::with_capacity(key.len() + 4);
    let mut prev_lower = false;
    for c in key.chars() {
        if matches!(c, '_' | '-' | '.') {
            out.push(' ');
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase();
        out.push(c);
    }
    out
}

/// What names an array's item: its short strings (`"name": "Police"`, `"region": "North"`),
/// the years and ids among its numbers (`"year": 2021`, `"site_id": 101`).
fn item_names(item: &Value) -> (Vec<layout::Atom>, String) {
    let Value::Object(map) = item else {
        return (Vec::new(), String::new());
    };
    let mut text = String::new();
    for (k, v) in map.iter() {
        match v {
            // A value written as a key (`mayores_65`) is read as its words; a code keeps its
            // dash (`KX-310`, `INC-1042`).
            Value::String(s) if s.chars().count() <= 60 => {
                if s.contains('_') && !s.contains(['-', '.']) {
                    text.push_str(&key_words(s));
                } else {
                    text.push_str(s);
                }
                text.push_str(" ; ");
            }
            Value::Number(n) if year_key(k) || id_key(k) => {
                text.push_str(&n.to_string());
                text.push_str(" ; ");
            }
            _ => {}
        }
    }
    // Nothing names it: its condition does (`{"defects": 64, "condition": 140}`, `"dose_mg":
    // 20`), else its first number, the way a table's first column names its row.
    if text.is_empty() {
        let condition = map
            .iter()
            .find(|(k, v)| matches!(v, Value::Number(_)) && condition_key(k));
        if let Some((_, Value::Number(n))) = condition.or_else(|| map.iter().next()) {
            text.push_str(&n.to_string());
        }
    }
    let atoms = layout::text_atoms(&text);
    let text = text
        .trim()
        .trim_end_matches(';')
        .trim()
        .replace(" ; ", ", ");
    (atoms, text)
}

/// A key that names a condition the other numbers were measured under: its unit is one of
/// conditions (`temp_c`, `dose_mg`), or it says so (`condition`, `Bedingung`, `dose`).
fn condition_key(key: &str) -> bool {
    if frame::key_spec(key)
        .unit
        .is_some_and(|u| layout::CONDITION_UNITS.contains(&u))
    {
        return true;
    }
    let key = key_words(key);
    let words = crate::verify::words::fold(&key);
    words.split_whitespace().any(|w| {
        ["condi", "beding", "dose", "dosis", "temperat", "setting"]
            .iter()
            .any(|c| w.starts_with(c))
    })
}

/// A key that names a year (`year`, `ano`, `fiscal_year`, `jahr`).
fn year_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    [
        "year",
        "ano",
        "anio",
        "jahr",
        "annee",
        "fy",
        "ejercicio",
        "exercice",
        "exercicio",
    ]
    .iter()
    .any(|y| k == *y || k.ends_with(&format!("_{y}")) || k.starts_with(&format!("{y}_")))
}

/// A key that names an identifier (`id`, `site_id`, `code`, `no`).
fn id_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k == "id"
        || k.ends_with("_id")
        || k.ends_with("id") && k.len() <= 6
        || matches!(k.as_str(), "code" | "no" | "nr" | "number" | "num")
}

fn mix(salt: u64, s: &str) -> u64 {
    s.bytes().fold(salt ^ 0x6a50, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
    })
}
