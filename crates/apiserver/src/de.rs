//! A serde `Deserializer` over the positioned YAML tree that behaves like the API server's JSON
//! decoder (Go `encoding/json` plus strict field validation).
//!
//! Go decodes by the *target* type: a JSON bool where a string is expected is an error
//! (`cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type
//! string`), a JSON null leaves the zero value, unknown fields are collected and reported as
//! `strict decoding error: unknown field "…"`. serde's `deserialize_*` hints tell us the target
//! type, `deserialize_struct` tells us the Go struct name and its fields, and the tree tells us
//! where each value was written — together that is everything the error message needs.
//!
//! This module knows the shape of Go's messages, not any particular Kubernetes type.

use std::cell::RefCell;
use std::fmt;

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use crate::yaml::{float_as_int, Entry, Node, Pos, Value};

/// Decodes `node` into `T`; unknown fields are appended to `unknown`.
pub(crate) fn from_node<'de, T: de::Deserialize<'de>>(
    node: &'de Node,
    unknown: &mut Vec<UnknownField>,
) -> Result<T, DeError> {
    let ctx = Ctx {
        unknown: RefCell::new(Vec::new()),
    };
    let out = T::deserialize(De {
        node,
        link: None,
        ctx: &ctx,
    })
    .map_err(|e| e.attach(node, None));
    unknown.extend(ctx.unknown.into_inner());
    out
}

struct Ctx {
    unknown: RefCell<Vec<UnknownField>>,
}

/// A field the target struct does not have (the API server rejects these under strict
/// field validation, kubectl's default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownField {
    /// Full path, e.g. `spec.template.spec.containers[0].imagee`.
    pub path: String,
    /// Position of the key.
    pub pos: Pos,
    pub name: String,
    /// Go struct that lacks the field, e.g. `Container`.
    pub owner: &'static str,
    /// A field of `owner` whose name is close, e.g. `image`.
    pub suggestion: Option<&'static str>,
}

#[derive(Clone, Copy)]
enum Seg<'a> {
    Field { name: &'a str, owner: &'static str },
    Key(&'a str),
    Index(usize),
}

/// The path from the root to the value being decoded, as a linked list on the stack.
struct Link<'a> {
    parent: Option<&'a Link<'a>>,
    seg: Seg<'a>,
}

fn segments<'a>(mut link: Option<&'a Link<'a>>) -> Vec<Seg<'a>> {
    let mut segs = Vec::new();
    while let Some(l) = link {
        segs.push(l.seg);
        link = l.parent;
    }
    segs.reverse();
    segs
}

fn render_path(segs: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in segs {
        match seg {
            Seg::Field { name, .. } | Seg::Key(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Seg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// Where a decode error happened and what was found there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct At {
    pub pos: Pos,
    /// `spec.template.spec.nodeSelector.k42`
    pub json_path: String,
    /// Go's struct-field context: `PodSpec.spec.template.spec.nodeSelector`; `None` at the root.
    pub go_field: Option<String>,
    /// The key or field name holding the value (`k42`), if it is held by a key.
    pub holder: Option<String>,
    /// Go's name of the JSON kind found: `bool`, `string`, `number`, `object`, `array`.
    pub found: &'static str,
    pub number: Option<String>,
    /// Source text of a plain scalar that resolved to a non-string (`yes`).
    pub plain: Option<String>,
    pub string_value: Option<String>,
}

impl At {
    fn new(node: &Node, link: Option<&Link<'_>>) -> At {
        let segs = segments(link);
        let fields: Vec<(&str, &'static str)> = segs
            .iter()
            .filter_map(|s| match s {
                Seg::Field { name, owner } => Some((*name, *owner)),
                _ => None,
            })
            .collect();
        let go_field = fields.last().map(|(_, owner)| {
            let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
            format!("{owner}.{}", names.join("."))
        });
        let holder = match segs.last() {
            Some(Seg::Field { name, .. } | Seg::Key(name)) => Some((*name).to_string()),
            _ => None,
        };
        At {
            pos: node.pos,
            json_path: render_path(&segs),
            go_field,
            holder,
            found: node.json_kind(),
            number: node.number_text(),
            plain: node.plain.as_deref().map(str::to_string),
            string_value: node.as_str().map(str::to_string),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DeErrorKind {
    /// Wrong JSON kind for the Go type (`bool` into `string`).
    Mismatch { go_type: String },
    /// A number that does not fit the Go type (`1.5` or `3000000000` into `int32`).
    OutOfRange { go_type: String },
    /// Anything else a type's own decoder complained about.
    Custom(String),
    /// Internal: used to discover a collection's element type.
    Probe(String),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeError {
    pub kind: DeErrorKind,
    pub at: Option<Box<At>>,
}

impl DeError {
    fn new(kind: DeErrorKind) -> DeError {
        DeError { kind, at: None }
    }

    fn attach(mut self, node: &Node, link: Option<&Link<'_>>) -> DeError {
        if self.at.is_none() && !matches!(self.kind, DeErrorKind::Probe(_)) {
            self.at = Some(Box::new(At::new(node, link)));
        }
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DeErrorKind::Mismatch { go_type } | DeErrorKind::OutOfRange { go_type } => {
                write!(f, "cannot unmarshal into {go_type}")
            }
            DeErrorKind::Custom(msg) => f.write_str(msg),
            DeErrorKind::Probe(t) => write!(f, "probe {t}"),
        }
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::new(DeErrorKind::Custom(msg.to_string()))
    }

    fn invalid_type(_unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        DeError::new(DeErrorKind::Mismatch {
            go_type: go_type_from_expected(&exp.to_string()),
        })
    }

    fn invalid_value(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        match unexp {
            de::Unexpected::Signed(_) | de::Unexpected::Unsigned(_) | de::Unexpected::Float(_) => {
                DeError::new(DeErrorKind::OutOfRange {
                    go_type: go_type_from_expected(&exp.to_string()),
                })
            }
            _ => DeError::new(DeErrorKind::Custom(format!(
                "invalid value: {unexp}, expected {exp}"
            ))),
        }
    }
}

/// Maps serde's "expected …" text to the Go type name the API server would print.
fn go_type_from_expected(exp: &str) -> String {
    match exp {
        "a string" | "string" | "a borrowed string" | "a character" => "string".into(),
        "a boolean" => "bool".into(),
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "f32" | "f64" => {
            go_number_type(exp).into()
        }
        "a 32-bit integer" => "int32".into(),
        "a sequence" => "[]interface {}".into(),
        "a map" => "map[string]interface {}".into(),
        "any valid JSON value" => "interface {}".into(),
        s if s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && s.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            go_struct_type(s)
        }
        s => s.to_string(),
    }
}

fn go_number_type(rust: &str) -> &'static str {
    match rust {
        "i8" => "int8",
        "i16" => "int16",
        "i32" => "int32",
        "i64" => "int64",
        "u8" => "uint8",
        "u16" => "uint16",
        "u32" => "uint32",
        "u64" => "uint64",
        "f32" => "float32",
        _ => "float64",
    }
}

/// Qualified Go type of a k8s-openapi struct, by its (Go) name.
fn go_struct_type(name: &str) -> String {
    match name {
        "Quantity" => "resource.Quantity".into(),
        "IntOrString" => "intstr.IntOrString".into(),
        "RawExtension" => "runtime.RawExtension".into(),
        _ => format!("v1.{name}"),
    }
}

#[derive(Clone, Copy)]
struct De<'de, 'a> {
    node: &'de Node,
    link: Option<&'a Link<'a>>,
    ctx: &'a Ctx,
}

impl<'de> De<'de, '_> {
    fn fail(&self, kind: DeErrorKind) -> DeError {
        DeError::new(kind).attach(self.node, self.link)
    }

    fn mismatch(&self, go_type: impl Into<String>) -> DeError {
        self.fail(DeErrorKind::Mismatch {
            go_type: go_type.into(),
        })
    }

    fn integer<V: Visitor<'de>>(self, v: V, go_type: &str) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Int(i) => v.visit_i64(*i),
            Value::UInt(u) => v.visit_u64(*u),
            Value::Float(f) => match float_as_int(*f) {
                Some(i) => v.visit_i64(i),
                None => Err(self.fail(DeErrorKind::OutOfRange {
                    go_type: go_type.into(),
                })),
            },
            Value::Null => v.visit_i64(0),
            _ => Err(self.mismatch(go_type)),
        }
    }

    fn float<V: Visitor<'de>>(self, v: V, go_type: &str) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Int(i) => v.visit_i64(*i),
            Value::UInt(u) => v.visit_u64(*u),
            Value::Float(f) => v.visit_f64(*f),
            Value::Null => v.visit_f64(0.0),
            _ => Err(self.mismatch(go_type)),
        }
    }

    fn string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Str(s) => v.visit_borrowed_str(s),
            Value::Null => v.visit_borrowed_str(""),
            _ => Err(self.mismatch("string")),
        }
    }
}

const NO_ENTRIES: &[Entry] = &[];
const NO_ITEMS: &[Node] = &[];

macro_rules! integers {
    ($($method:ident => $go:literal),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
            self.integer(v, $go)
        }
    )*};
}

impl<'de, 'a> de::Deserializer<'de> for De<'de, 'a> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(*b),
            Value::Int(i) => v.visit_i64(*i),
            Value::UInt(u) => v.visit_u64(*u),
            Value::Float(f) => match float_as_int(*f) {
                Some(i) => v.visit_i64(i),
                None => v.visit_f64(*f),
            },
            Value::Str(s) => v.visit_borrowed_str(s),
            Value::Seq(items) => v.visit_seq(self.seq(items)),
            Value::Map(entries) => v.visit_map(self.map(entries, None)),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Bool(b) => v.visit_bool(*b),
            Value::Null => v.visit_bool(false),
            _ => Err(self.mismatch("bool")),
        }
    }

    integers! {
        deserialize_i8 => "int8", deserialize_i16 => "int16", deserialize_i32 => "int32",
        deserialize_i64 => "int64", deserialize_u8 => "uint8", deserialize_u16 => "uint16",
        deserialize_u32 => "uint32", deserialize_u64 => "uint64",
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.float(v, "float32")
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.float(v, "float64")
    }

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.string(v)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.string(v)
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.string(v)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.string(v)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.string(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match self.node.value {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match self.node.value {
            Value::Null => v.visit_unit(),
            _ => Err(self.mismatch("struct {}")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        v.visit_newtype_struct(self)
            .map_err(|e| match (&e.kind, name, &self.node.value) {
                // Say it the way Go's time.Parse does.
                (DeErrorKind::Custom(_), "Time" | "MicroTime", Value::Str(s)) => {
                    let q = crate::gofmt::quote(s);
                    DeError::new(DeErrorKind::Custom(format!(
                        "parsing time {q} as \"2006-01-02T15:04:05Z07:00\": cannot parse {q} as \"2006\""
                    )))
                }
                _ => e,
            })
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Seq(items) => v.visit_seq(self.seq(items)),
            Value::Null => v.visit_seq(self.seq(NO_ITEMS)),
            _ => {
                let go_type = probe_seq(v);
                Err(self.mismatch(go_type))
            }
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, DeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Map(entries) => v.visit_map(self.map(entries, None)),
            Value::Null => v.visit_map(self.map(NO_ENTRIES, None)),
            _ => {
                let go_type = probe_map(v);
                Err(self.mismatch(go_type))
            }
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Map(entries) => v.visit_map(self.map(entries, Some((name, fields)))),
            Value::Null => v.visit_map(self.map(NO_ENTRIES, Some((name, fields)))),
            _ => Err(self.mismatch(go_struct_type(name))),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Str(s) => {
                v.visit_enum(IntoDeserializer::<DeError>::into_deserializer(s.as_str()))
            }
            _ => Err(self.mismatch("string")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.string(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_unit()
    }
}

impl<'de, 'a> De<'de, 'a> {
    fn seq(self, items: &'de [Node]) -> SeqDe<'de, 'a> {
        SeqDe {
            items: items.iter().enumerate(),
            link: self.link,
            ctx: self.ctx,
        }
    }

    fn map(
        self,
        entries: &'de [Entry],
        owner: Option<(&'static str, &'static [&'static str])>,
    ) -> MapDe<'de, 'a> {
        MapDe {
            entries: entries.iter(),
            current: None,
            owner,
            link: self.link,
            ctx: self.ctx,
        }
    }
}

struct SeqDe<'de, 'a> {
    items: std::iter::Enumerate<std::slice::Iter<'de, Node>>,
    link: Option<&'a Link<'a>>,
    ctx: &'a Ctx,
}

impl<'de> SeqAccess<'de> for SeqDe<'de, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some((i, node)) = self.items.next() else {
            return Ok(None);
        };
        let link = Link {
            parent: self.link,
            seg: Seg::Index(i),
        };
        seed.deserialize(De {
            node,
            link: Some(&link),
            ctx: self.ctx,
        })
        .map(Some)
        .map_err(|e| e.attach(node, Some(&link)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// Both plain maps (`owner == None`) and Go structs (`owner == Some((name, fields))`).
struct MapDe<'de, 'a> {
    entries: std::slice::Iter<'de, Entry>,
    current: Option<&'de Entry>,
    owner: Option<(&'static str, &'static [&'static str])>,
    link: Option<&'a Link<'a>>,
    ctx: &'a Ctx,
}

impl<'de> MapAccess<'de> for MapDe<'de, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        self.current = Some(entry);
        self.check_known(entry);
        seed.deserialize(BorrowedStrDeserializer::<DeError>::new(&entry.key))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, DeError> {
        let Some(entry) = self.current.take() else {
            return Err(de::Error::custom("map value requested before its key"));
        };
        let seg = match self.owner {
            Some((owner, _)) => Seg::Field {
                name: &entry.key,
                owner,
            },
            None => Seg::Key(&entry.key),
        };
        let link = Link {
            parent: self.link,
            seg,
        };
        seed.deserialize(De {
            node: &entry.value,
            link: Some(&link),
            ctx: self.ctx,
        })
        .map_err(|e| e.attach(&entry.value, Some(&link)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

impl MapDe<'_, '_> {
    /// Records `entry` if it is not a field of the struct being decoded. Not generic: one copy
    /// for every struct type (each type's key decoding is an instance of `next_key_seed`).
    #[inline(never)]
    fn check_known(&self, entry: &Entry) {
        let Some((owner, fields)) = self.owner else {
            return;
        };
        if fields.contains(&entry.key.as_str()) {
            return;
        }
        let link = Link {
            parent: self.link,
            seg: Seg::Key(&entry.key),
        };
        self.ctx.unknown.borrow_mut().push(UnknownField {
            path: render_path(&segments(Some(&link))),
            pos: entry.key_pos,
            name: entry.key.clone(),
            owner,
            suggestion: suggest(&entry.key, fields),
        });
    }
}

/// A field of `fields` that `key` was probably meant to be.
fn suggest(key: &str, fields: &'static [&'static str]) -> Option<&'static str> {
    if let Some(f) = fields.iter().find(|f| f.eq_ignore_ascii_case(key)) {
        return Some(f);
    }
    let budget = match key.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    fields
        .iter()
        .map(|f| {
            (
                levenshtein(&key.to_ascii_lowercase(), &f.to_ascii_lowercase()),
                *f,
            )
        })
        .filter(|(d, _)| *d <= budget)
        .min_by_key(|(d, _)| *d)
        .map(|(_, f)| f)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

// ---- Probing: learn a collection's Go element type from the visitor that wanted it. ----

fn probe_seq<'de, V: Visitor<'de>>(v: V) -> String {
    match v.visit_seq(ProbeSeq) {
        Err(DeError {
            kind: DeErrorKind::Probe(t),
            ..
        }) => format!("[]{t}"),
        _ => "[]interface {}".into(),
    }
}

fn probe_map<'de, V: Visitor<'de>>(v: V) -> String {
    match v.visit_map(ProbeMap) {
        Err(DeError {
            kind: DeErrorKind::Probe(t),
            ..
        }) => format!("map[string]{t}"),
        _ => "map[string]interface {}".into(),
    }
}

struct ProbeSeq;

impl<'de> SeqAccess<'de> for ProbeSeq {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        seed.deserialize(Probe).map(Some)
    }
}

struct ProbeMap;

impl<'de> MapAccess<'de> for ProbeMap {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        seed.deserialize(BorrowedStrDeserializer::<DeError>::new("probe"))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, DeError> {
        seed.deserialize(Probe)
    }
}

/// A deserializer that answers every request with the Go name of the requested type.
struct Probe;

fn found(t: impl Into<String>) -> DeError {
    DeError::new(DeErrorKind::Probe(t.into()))
}

macro_rules! probe_as {
    ($($method:ident => $go:literal),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, DeError> {
            Err(found($go))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Probe {
    type Error = DeError;

    probe_as! {
        deserialize_any => "interface {}", deserialize_bool => "bool",
        deserialize_i8 => "int8", deserialize_i16 => "int16", deserialize_i32 => "int32",
        deserialize_i64 => "int64", deserialize_u8 => "uint8", deserialize_u16 => "uint16",
        deserialize_u32 => "uint32", deserialize_u64 => "uint64", deserialize_f32 => "float32",
        deserialize_f64 => "float64", deserialize_char => "string", deserialize_str => "string",
        deserialize_string => "string", deserialize_bytes => "[]uint8",
        deserialize_byte_buf => "[]uint8", deserialize_unit => "struct {}",
        deserialize_identifier => "string", deserialize_ignored_any => "interface {}",
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _v: V,
    ) -> Result<V::Value, DeError> {
        Err(found(go_struct_type(name)))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _v: V,
    ) -> Result<V::Value, DeError> {
        Err(found(go_struct_type(name)))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        Err(found(probe_seq(v)))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, DeError> {
        Err(found(probe_seq(v)))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, DeError> {
        Err(found(probe_seq(v)))
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        Err(found(probe_map(v)))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, DeError> {
        Err(found(go_struct_type(name)))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, DeError> {
        Err(found("string"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_stream;
    use k8s_openapi::api::core::v1::PodSpec;

    fn decode_spec(text: &str) -> Result<PodSpec, DeError> {
        let docs = parse_stream(text)
            .map_err(|e| panic!("{e:?}"))
            .unwrap_or_default();
        let mut unknown = Vec::new();
        from_node(&docs[0], &mut unknown)
    }

    #[test]
    fn element_types_are_named_like_go() {
        let err = decode_spec("containers: {name: x}\n").err();
        let Some(DeError {
            kind: DeErrorKind::Mismatch { go_type },
            at: Some(at),
        }) = err
        else {
            panic!("{err:?}")
        };
        assert_eq!(go_type, "[]v1.Container");
        assert_eq!(at.go_field.as_deref(), Some("PodSpec.containers"));
        assert_eq!(at.found, "object");
    }

    #[test]
    fn map_value_types_are_named_like_go() {
        let err = decode_spec("nodeSelector: [a]\n").err();
        assert!(matches!(
            err,
            Some(DeError { kind: DeErrorKind::Mismatch { ref go_type }, .. }) if go_type == "map[string]string"
        ));
    }

    #[test]
    fn suggestions_find_typos() {
        assert_eq!(suggest("imagee", &["image", "name"]), Some("image"));
        assert_eq!(
            suggest("nodeselector", &["nodeSelector"]),
            Some("nodeSelector")
        );
        assert_eq!(suggest("zzz", &["image"]), None);
    }
}
