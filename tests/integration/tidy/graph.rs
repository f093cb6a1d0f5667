//! A directed graph of names, and its cycles in words.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Edges from one name to another, each with what made it (the first path seen).
#[derive(Default)]
pub struct Graph {
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    pub fn add(&mut self, from: &str, to: &str, why: &str) {
        self.edges
            .entry(from.to_owned())
            .or_default()
            .entry(to.to_owned())
            .or_insert_with(|| why.to_owned());
    }

    pub fn edges(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.edges.iter().flat_map(|(from, tos)| {
            tos.iter()
                .map(move |(to, why)| (from.as_str(), to.as_str(), why.as_str()))
        })
    }

    /// One cycle per strongly connected component, the shortest through its first name, as
    /// `a → b → a` followed by what makes each step.
    pub fn cycles(&self) -> Vec<String> {
        self.components()
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|component| {
                let cycle = self.shortest_cycle(&component);
                let mut text = format!("  {}", cycle.join(" → "));
                for step in cycle.windows(2) {
                    let why = &self.edges[&step[0]][&step[1]];
                    text.push_str(&format!("\n      {} → {}: {why}", step[0], step[1]));
                }
                if component.len() + 1 > cycle.len() {
                    let all: Vec<&str> = component.iter().map(String::as_str).collect();
                    text.push_str(&format!(
                        "\n      (one of the cycles among {})",
                        all.join(", ")
                    ));
                }
                text
            })
            .collect()
    }

    fn shortest_cycle(&self, component: &BTreeSet<String>) -> Vec<String> {
        let start = component.first().expect("a component has a name");
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = VecDeque::from([start.as_str()]);
        while let Some(at) = queue.pop_front() {
            for next in self.edges.get(at).into_iter().flat_map(BTreeMap::keys) {
                if !component.contains(next) {
                    continue;
                }
                if next == start {
                    let mut cycle = vec![start.clone()];
                    let mut back = at;
                    while back != start {
                        cycle.push(back.to_owned());
                        back = came_from[back];
                    }
                    cycle.push(start.clone());
                    cycle.reverse();
                    return cycle;
                }
                if !came_from.contains_key(next.as_str()) {
                    came_from.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
        unreachable!("a strongly connected component of two or more names has a cycle")
    }

    /// Tarjan's strongly connected components.
    fn components(&self) -> Vec<BTreeSet<String>> {
        struct Walk<'a> {
            graph: &'a Graph,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on_stack: BTreeSet<&'a str>,
            found: Vec<BTreeSet<String>>,
        }
        impl<'a> Walk<'a> {
            fn visit(&mut self, at: &'a str) {
                let n = self.index.len();
                self.index.insert(at, n);
                self.low.insert(at, n);
                self.stack.push(at);
                self.on_stack.insert(at);
                let graph = self.graph;
                for next in graph.edges.get(at).into_iter().flat_map(BTreeMap::keys) {
                    let next = next.as_str();
                    if !self.index.contains_key(next) {
                        self.visit(next);
                        let low = self.low[at].min(self.low[next]);
                        self.low.insert(at, low);
                    } else if self.on_stack.contains(next) {
                        let low = self.low[at].min(self.index[next]);
                        self.low.insert(at, low);
                    }
                }
                if self.low[at] == self.index[at] {
                    let mut component = BTreeSet::new();
                    while let Some(top) = self.stack.pop() {
                        self.on_stack.remove(top);
                        component.insert(top.to_owned());
                        if top == at {
                            break;
                        }
                    }
                    self.found.push(component);
                }
            }
        }
        let mut walk = Walk {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            found: Vec::new(),
        };
        for from in self.edges.keys() {
            if !walk.index.contains_key(from.as_str()) {
                walk.visit(from);
            }
        }
        walk.found.sort();
        walk.found
    }
}
