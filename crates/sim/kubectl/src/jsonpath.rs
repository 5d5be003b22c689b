//! The subset of kubectl's JSONPath templates (`k8s.io/client-go/util/jsonpath`) that people
//! use with `-o jsonpath=`: fields, `[n]`, `[*]`, `[a:b]`, `..field`, `[?(@.a=="b")]`,
//! `{range …}{end}`, string literals `{"\n"}` and text between actions. Missing keys print
//! nothing (kubectl's `--allow-missing-template-keys=true`).

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Path(Vec<Step>),
    Range(Vec<Step>, Vec<Piece>),
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Field(String),
    Recursive(String),
    Index(i64),
    Wildcard,
    Slice(Option<i64>, Option<i64>),
    Filter(Vec<Step>, FilterOp),
}

#[derive(Debug, Clone, PartialEq)]
enum FilterOp {
    Exists,
    Eq(Value),
    Ne(Value),
}

/// Parses and runs a template against a value (`-o jsonpath=`): each piece's values as text,
/// several joined by a space, maps and lists as compact JSON.
pub fn render(template: &str, data: &Value) -> Result<String, String> {
    print_groups(template, data, |group| {
        let texts: Vec<String> = group.iter().map(Found::text).collect();
        texts.join(" ")
    })
}

/// `-o jsonpath-as-json=`: what [`render`] finds, each piece's values (a text piece's text
/// included) as one JSON array, indented as `json.MarshalIndent(_, "", "    ")` with a newline
/// (client-go's `PrintResults` with JSON output on).
pub fn render_json(template: &str, data: &Value) -> Result<String, String> {
    print_groups(template, data, |group| {
        let values = group.iter().map(Found::json).collect();
        crate::get::pretty_json(&Value::Array(values))
    })
}

/// Parses the template, collects what each piece finds in `data` ([`exec`]) and prints each
/// piece's group with `print`, one after the other.
fn print_groups(
    template: &str,
    data: &Value,
    print: impl Fn(&[Found]) -> String,
) -> Result<String, String> {
    let pieces = parse(template).map_err(|e| format!("error parsing jsonpath {template}, {e}"))?;
    let mut groups = Vec::new();
    exec(&pieces, data, &mut groups);
    Ok(groups.iter().map(|group| print(group)).collect())
}

/// One thing a template piece yields: its own text, or a value found in the data.
enum Found<'a> {
    Text(&'a str),
    Value(&'a Value),
}

impl Found<'_> {
    fn text(&self) -> String {
        match self {
            Found::Text(t) => t.to_string(),
            Found::Value(v) => text(v),
        }
    }

    fn json(&self) -> Value {
        match self {
            Found::Text(t) => Value::String(t.to_string()),
            Found::Value(v) => (*v).clone(),
        }
    }
}

/// kubectl's `RelaxedJSONPathExpression`: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all mean `{.a.b}`.
pub(crate) fn relaxed(input: &str) -> Result<String, String> {
    let braced = input.strip_prefix('{').and_then(|r| r.strip_suffix('}'));
    let inner = braced.unwrap_or(input);
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains(['{', '}']) {
        return Err("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".into());
    }
    Ok(format!("{{.{inner}}}"))
}

/// A template's first `{…}` path, parsed once to run on many objects (`--sort-by`,
/// `-o custom-columns`). Missing keys find nothing; they are no error.
pub(crate) struct Finder(Option<Vec<Step>>);

impl Finder {
    pub(crate) fn new(template: &str) -> Result<Finder, String> {
        let pieces =
            parse(template).map_err(|e| format!("error parsing jsonpath {template}, {e}"))?;
        Ok(Finder(pieces.into_iter().find_map(|p| match p {
            Piece::Path(steps) => Some(steps),
            _ => None,
        })))
    }

    /// Every value the path finds in `data` (client-go's `FindResults(data)[0]`).
    pub(crate) fn find<'a>(&self, data: &'a Value) -> Vec<&'a Value> {
        self.0.as_ref().map(|s| eval(s, data)).unwrap_or_default()
    }
}

fn parse(template: &str) -> Result<Vec<Piece>, String> {
    let mut stack: Vec<(Vec<Step>, Vec<Piece>)> = Vec::new();
    let mut cur: Vec<Piece> = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        let Some(open) = rest.find('{') else {
            cur.push(Piece::Text(rest.to_string()));
            break;
        };
        if open > 0 {
            cur.push(Piece::Text(rest[..open].to_string()));
        }
        let after = &rest[open + 1..];
        let close = find_close(after).ok_or("unclosed action")?;
        let action = after[..close].trim();
        rest = &after[close + 1..];
        if action == "end" {
            let (path, outer) = stack.pop().ok_or("not in range, nothing to end")?;
            let body = std::mem::replace(&mut cur, outer);
            cur.push(Piece::Range(path, body));
        } else if let Some(p) = action.strip_prefix("range ") {
            let path = parse_path(p.trim())?;
            stack.push((path, std::mem::take(&mut cur)));
        } else if action.starts_with('"') {
            cur.push(Piece::Text(unquote(action)?));
        } else {
            cur.push(Piece::Path(parse_path(action)?));
        }
    }
    if !stack.is_empty() {
        return Err("unclosed range".into());
    }
    Ok(cur)
}

/// The index of the `}` closing an action, skipping quoted text.
fn find_close(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '}' => return Some(i),
                _ => {}
            },
        }
    }
    None
}

fn unquote(s: &str) -> Result<String, String> {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or("unterminated quoted string")?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(c) => out.push(c),
                None => return Err("unterminated quoted string".into()),
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

fn parse_path(p: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut s = p.strip_prefix('$').or(p.strip_prefix('@')).unwrap_or(p);
    if s.is_empty() {
        return Err(format!("unrecognized identifier {p}"));
    }
    while !s.is_empty() {
        if let Some(r) = s.strip_prefix("..") {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            steps.push(Step::Recursive(r[..end].to_string()));
            s = &r[end..];
        } else if let Some(r) = s.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end > 0 {
                steps.push(Step::Field(r[..end].to_string()));
            }
            s = &r[end..];
        } else if let Some(r) = s.strip_prefix('[') {
            let close = find_bracket(r).ok_or("unterminated array")?;
            let inner = r[..close].trim();
            s = &r[close + 1..];
            steps.push(parse_bracket(inner)?);
        } else {
            return Err(format!("unrecognized character in action: {s}"));
        }
    }
    Ok(steps)
}

fn find_bracket(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '[' | '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ']' if depth == 0 => return Some(i),
                ']' => depth -= 1,
                _ => {}
            },
        }
    }
    None
}

fn parse_bracket(inner: &str) -> Result<Step, String> {
    if inner == "*" {
        return Ok(Step::Wildcard);
    }
    if let Some(f) = inner.strip_prefix("?(").and_then(|f| f.strip_suffix(')')) {
        return parse_filter(f.trim());
    }
    if (inner.starts_with('\'') && inner.ends_with('\'') && inner.len() >= 2)
        || (inner.starts_with('"') && inner.ends_with('"') && inner.len() >= 2)
    {
        return Ok(Step::Field(inner[1..inner.len() - 1].to_string()));
    }
    if let Some((a, b)) = inner.split_once(':') {
        let num = |x: &str| -> Result<Option<i64>, String> {
            let x = x.trim();
            if x.is_empty() {
                Ok(None)
            } else {
                x.parse()
                    .map(Some)
                    .map_err(|_| format!("invalid array index {x}"))
            }
        };
        let b = b.split(':').next().unwrap_or("");
        return Ok(Step::Slice(num(a)?, num(b)?));
    }
    inner
        .parse::<i64>()
        .map(Step::Index)
        .map_err(|_| format!("invalid array index {inner}"))
}

fn parse_filter(f: &str) -> Result<Step, String> {
    for (op, ne) in [("!=", true), ("==", false)] {
        if let Some((l, r)) = f.split_once(op) {
            let path = parse_path(l.trim())?;
            let r = r.trim();
            let lit = if (r.starts_with('"') && r.ends_with('"') && r.len() >= 2)
                || (r.starts_with('\'') && r.ends_with('\'') && r.len() >= 2)
            {
                Value::String(r[1..r.len() - 1].to_string())
            } else {
                serde_json::from_slice(r.as_bytes()).unwrap_or(Value::String(r.to_string()))
            };
            return Ok(Step::Filter(
                path,
                if ne {
                    FilterOp::Ne(lit)
                } else {
                    FilterOp::Eq(lit)
                },
            ));
        }
    }
    Ok(Step::Filter(parse_path(f)?, FilterOp::Exists))
}

/// What each piece yields, in order: one group per piece, a `range` body's pieces once per
/// element (client-go's `FindResults`).
fn exec<'a>(pieces: &'a [Piece], data: &'a Value, out: &mut Vec<Vec<Found<'a>>>) {
    for p in pieces {
        match p {
            Piece::Text(t) => out.push(vec![Found::Text(t)]),
            Piece::Path(steps) => {
                out.push(eval(steps, data).into_iter().map(Found::Value).collect())
            }
            Piece::Range(steps, body) => {
                for v in eval(steps, data) {
                    match v {
                        // `range` over a list visits its elements.
                        Value::Array(items) if !matches!(steps.last(), Some(Step::Wildcard)) => {
                            for item in items {
                                exec(body, item, out);
                            }
                        }
                        other => exec(body, other, out),
                    }
                }
            }
        }
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn eval<'a>(steps: &[Step], root: &'a Value) -> Vec<&'a Value> {
    let mut cur = vec![root];
    for step in steps {
        let mut next = Vec::new();
        for v in cur {
            match step {
                Step::Field(name) => {
                    if let Some(x) = v.get(name) {
                        next.push(x);
                    }
                }
                Step::Recursive(name) => collect_recursive(v, name, &mut next),
                Step::Index(i) => {
                    if let Value::Array(a) = v {
                        let idx = if *i < 0 { a.len() as i64 + i } else { *i };
                        if let Some(x) = usize::try_from(idx).ok().and_then(|i| a.get(i)) {
                            next.push(x);
                        }
                    }
                }
                Step::Wildcard => match v {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(m) => next.extend(m.values()),
                    _ => {}
                },
                Step::Slice(a, b) => {
                    if let Value::Array(arr) = v {
                        let len = arr.len() as i64;
                        let norm = |x: i64| if x < 0 { (len + x).max(0) } else { x.min(len) };
                        let start = norm(a.unwrap_or(0)) as usize;
                        let end = norm(b.unwrap_or(len)) as usize;
                        if start < end {
                            next.extend(arr[start..end].iter());
                        }
                    }
                }
                Step::Filter(path, op) => {
                    if let Value::Array(a) = v {
                        for item in a {
                            let got = eval(path, item);
                            let keep = match op {
                                FilterOp::Exists => !got.is_empty(),
                                FilterOp::Eq(lit) => got.iter().any(|g| loose_eq(g, lit)),
                                FilterOp::Ne(lit) => got.iter().any(|g| !loose_eq(g, lit)),
                            };
                            if keep {
                                next.push(item);
                            }
                        }
                    }
                }
            }
        }
        cur = next;
    }
    cur
}

fn loose_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), y) => x == &text(y),
        (x, y) => x == y,
    }
}

fn collect_recursive<'a>(v: &'a Value, name: &str, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(m) => {
            if let Some(x) = m.get(name) {
                out.push(x);
            }
            for c in m.values() {
                collect_recursive(c, name, out);
            }
        }
        Value::Array(a) => {
            for c in a {
                collect_recursive(c, name, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_usual_templates() {
        let list = json!({"items": [
            {"metadata": {"name": "a"}, "status": {"conditions": [{"type": "Ready", "status": "True"}]}},
            {"metadata": {"name": "b"}, "status": {"conditions": [{"type": "Ready", "status": "False"}]}}
        ]});
        assert_eq!(render("{.items[*].metadata.name}", &list).unwrap(), "a b");
        assert_eq!(
            render("{range .items[*]}{.metadata.name}{\"\\n\"}{end}", &list).unwrap(),
            "a\nb\n"
        );
        assert_eq!(
            render(
                "{.items[?(@.metadata.name==\"b\")].status.conditions[0].status}",
                &list
            )
            .unwrap(),
            "False"
        );
        assert_eq!(render("{.items[0].nope}", &list).unwrap(), "");
        assert!(render("{.items[0", &list).is_err());
        assert_eq!(
            render("n={.items[-1].metadata.name}", &list).unwrap(),
            "n=b"
        );
    }
}
