#include "net/board_page.hpp"

namespace tl::net {
namespace {

// The page. Its query string carries the join code (every request needs it), the presenter key
// where there is one, and optionally wait_ms (long-poll instead of server-sent events, each poll
// waiting that long) and pause_ms (the least time between two polled redraws). The browser test
// asks for wait_ms=0: a headless browser's virtual time stands still while a request is open, so a
// long poll or an event stream would keep it from ever dumping.
constexpr const char* kPage = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ThreadLab class board</title>
<style>
  body { font-family: "DejaVu Sans", sans-serif; background: #111; color: #eee; margin: 1.5em; }
  h1 { font-size: 1.6em; margin: 0 0 0.3em 0; }
  #status { color: #aaa; margin-bottom: 1em; }
  table { border-collapse: collapse; font-size: 1.2em; }
  th, td { border: 1px solid #444; padding: 0.3em 0.7em; text-align: center; }
  th.student { text-align: left; }
  td.passed { background: #1d5e2a; }
  td.failed, td.compile-error { background: #6b1f1f; }
  td.unavailable { background: #444; }
  #names-toggle { margin-left: 1em; }
  #shared h2 { font-size: 1.3em; margin: 1.2em 0 0.4em 0; }
  #shared pre { background: #1b1b1b; border: 1px solid #444; padding: 0.6em; overflow-x: auto;
                font-family: "DejaVu Sans Mono", monospace; font-size: 0.95em; }
  #shared summary { cursor: pointer; margin: 0.3em 0; }
</style>
</head>
<body>
<h1>ThreadLab class board</h1>
<div id="status">Connecting…</div>
<table id="board"><thead><tr id="head"></tr></thead><tbody id="rows"></tbody></table>
<section id="shared"></section>
<script>
"use strict";
const query = new URLSearchParams(location.search);
const code = query.get("code") || "";
const key = query.get("key") || "";
const waitMs = Math.min(Math.max(parseInt(query.get("wait_ms") || "20000", 10) || 0, 0), 20000);
// Between two answers: a burst of results redraws the projector at most four times a second.
const pauseMs = Math.min(Math.max(parseInt(query.get("pause_ms") || "250", 10) || 0, 0), 10000);
const presenter = PRESENTER;
let showNames = presenter && query.get("names") === "1";
let version = 0;
let inFlight = null;  // the waiting poll, aborted when the names are toggled
let sharedSeen = "";  // which shares (student, exercise, attempt) the section shows

function cellText(result) {
  if (result.outcome === "passed") {
    if (result.kernel_ms > 0 && result.reference_ms > 0) {
      return "\u2714 " + (result.kernel_ms / result.reference_ms).toFixed(2) + "\u00d7";
    }
    return "\u2714";
  }
  if (result.outcome === "unavailable") return "\u2013";
  return "\u2718";
}

function cellTitle(result) {
  let title = result.outcome;
  if (result.failed_check) title += ": " + result.failed_check;
  if (result.kernel_ms > 0) title += " (" + result.kernel_ms.toFixed(3) + " ms";
  if (result.reference_ms > 0) title += ", reference " + result.reference_ms.toFixed(3) + " ms";
  if (result.kernel_ms > 0) title += ")";
  return title;
}

function draw(board) {
  const head = document.getElementById("head");
  head.replaceChildren();
  const corner = document.createElement("th");
  corner.className = "student";
  corner.textContent = "Student";
  head.appendChild(corner);
  for (const exercise of board.exercises) {
    const th = document.createElement("th");
    th.textContent = exercise;
    head.appendChild(th);
  }
  const rows = document.getElementById("rows");
  rows.replaceChildren();
  for (const student of board.students) {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.className = "student";
    name.textContent = student.name;
    tr.appendChild(name);
    for (const exercise of board.exercises) {
      const td = document.createElement("td");
      const result = student.results[exercise];
      if (result) {
        td.className = result.outcome;
        td.textContent = cellText(result);
        td.title = cellTitle(result);
      }
      if (student.shared && student.shared[exercise] !== undefined) {
        td.textContent += " \u{1F4C4}";
        td.title += (td.title ? "; " : "") + "code shared (below)";
      }
      td.dataset.exercise = exercise;
      tr.appendChild(td);
    }
    rows.appendChild(tr);
  }
  let status = board.followers + " following \u00b7 " + board.students.length + " students";
  if (board.lesson) status += " \u00b7 lesson " + board.lesson;
  if (board.step !== undefined) status += ", step " + (board.step + 1);
  document.getElementById("status").textContent = status;
  document.body.dataset.version = String(board.version);
  updateShared(board);
}

// The code students chose to share, for the presenter's page only (its key): each as text in a
// <pre>, so code that looks like HTML stays code. Fetched again only when the shares change.
async function updateShared(board) {
  const section = document.getElementById("shared");
  const shares = board.students.filter(s => s.shared && Object.keys(s.shared).length > 0);
  const seen = JSON.stringify(shares.map(s => [s.number, s.shared]));
  if (!showNames || shares.length === 0) {
    section.replaceChildren();
    sharedSeen = "";
    return;
  }
  if (seen === sharedSeen) return;
  sharedSeen = seen;
  try {
    const response = await fetch("/api/v1/shared?code=" + encodeURIComponent(code) + "&key=" +
                                 encodeURIComponent(key), {cache: "no-store"});
    const body = await response.json();
    if (!response.ok) throw new Error(body.reason);
    const title = document.createElement("h2");
    title.textContent = "Shared code";
    const items = [title];
    for (const shared of body.codes) {
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = shared.name + " \u00b7 " + shared.exercise;
      const pre = document.createElement("pre");
      pre.textContent = shared.code;
      details.append(summary, pre);
      items.push(details);
    }
    section.replaceChildren(...items);
  } catch (error) {
    sharedSeen = "";  // tried again with the next board
  }
}

async function poll() {
  for (;;) {
    let url = "/api/v1/board?code=" + encodeURIComponent(code) + "&after=" + version +
              "&wait_ms=" + waitMs;
    if (showNames) url += "&names=1&key=" + encodeURIComponent(key);
    try {
      inFlight = new AbortController();
      const response = await fetch(url, {cache: "no-store", signal: inFlight.signal});
      const body = await response.json();
      if (!response.ok) {
        document.getElementById("status").textContent = "Refused: " + body.reason;
        await new Promise(r => setTimeout(r, 5000));
        continue;
      }
      version = body.version;
      draw(body);
      await new Promise(r => setTimeout(r, pauseMs));
    } catch (error) {
      if (error.name === "AbortError") continue;
      document.getElementById("status").textContent = "Reconnecting\u2026";
      await new Promise(r => setTimeout(r, 1000));
    }
  }
}

// Server-sent events where the browser has them and no wait_ms was asked for: the server pushes
// the board at each change on one open connection. The long poll stays for wait_ms (the headless
// browser test, whose virtual time stands still while a connection is open) and old browsers.
const useEvents = !query.has("wait_ms") && typeof EventSource === "function";
let source = null;

function listen() {
  let url = "/api/v1/board/events?code=" + encodeURIComponent(code);
  if (showNames) url += "&names=1&key=" + encodeURIComponent(key);
  source = new EventSource(url);
  source.onmessage = (event) => {
    const board = JSON.parse(event.data);
    version = board.version;
    draw(board);
  };
  // EventSource reconnects by itself; until then the status says so.
  source.onerror = () => {
    document.getElementById("status").textContent = "Reconnecting\u2026";
  };
}

async function start() {
  if (!useEvents) return poll();
  // One plain request first: a refusal (a wrong code) comes with its reason, which an EventSource
  // cannot read.
  try {
    const response = await fetch("/api/v1/board?code=" + encodeURIComponent(code) + "&wait_ms=0",
                                 {cache: "no-store"});
    const body = await response.json();
    if (!response.ok) {
      document.getElementById("status").textContent = "Refused: " + body.reason;
      return;
    }
  } catch (error) {
    // The server may be restarting: the event stream retries by itself.
  }
  listen();
}

if (presenter) {
  const toggle = document.createElement("button");
  toggle.id = "names-toggle";
  toggle.textContent = showNames ? "Hide names" : "Show names";
  toggle.onclick = () => {
    showNames = !showNames;
    toggle.textContent = showNames ? "Hide names" : "Show names";
    if (source) {
      source.close();
      listen();  // the first event is the board, with or without the names
      return;
    }
    version = 0;  // the next poll answers at once, with or without the names
    if (inFlight) inFlight.abort();
  };
  document.querySelector("h1").appendChild(toggle);
}
start();
</script>
</body>
</html>
)HTML";

}  // namespace

std::string board_page_html(bool presenter) {
  std::string page = kPage;
  const std::string marker = "PRESENTER";
  page.replace(page.find(marker), marker.size(), presenter ? "true" : "false");
  return page;
}

}  // namespace tl::net
