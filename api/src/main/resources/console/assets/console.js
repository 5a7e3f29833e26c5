// The Agent Platform console: one page, routed by its path, that reads and writes through the public API only.
// The session is an HttpOnly cookie set by POST /api/v1/auth/session: no script here ever holds the key or token.
// Everything the API answers is put into the page as text (textContent), never as HTML.

const TASK_STATUSES = ["queued", "running", "input_required", "auth_required", "completed", "failed", "canceled", "rejected", "timeout"];
const FINAL = new Set(["completed", "failed", "canceled", "rejected", "timeout"]);
const STREAM_EVENTS = ["user_message", "task_status", "agent_reply_delta", "agent_thought_chunk", "agent_message_chunk", "agent_message",
  "turn_status", "conversation_status", "backfill_truncated", "done"];

const OPERATION_EVENTS = ["queued", "running", "runtime_committed", "projection_pending", "projection_blocked", "cancel_requested",
  "succeeded", "failed", "cancelled", "expired", "outcome_unknown"];
const OPERATION_ENDS = new Set(["succeeded", "failed", "cancelled", "expired", "outcome_unknown"]);

class SignInNeeded extends Error {}

class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? `${error.code}: ${error.message}` : `HTTP ${status}`);
    this.status = status;
    this.code = error && error.code;
  }
}

/** The caller's request quota as the last answer's X-RateLimit headers told it. */
let lastQuota = null;

/** Calls the API with the session cookie; answers the envelope's data (or the body when it has none). */
async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" }, signal: pageSignal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.headers.get("X-RateLimit-Remaining") !== null) {
    lastQuota = { limit: response.headers.get("X-RateLimit-Limit"), remaining: response.headers.get("X-RateLimit-Remaining") };
  }
  if (response.status === 401) {
    throw new SignInNeeded();
  }
  if (response.status === 204) {
    return null;
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, json && json.error);
  }
  return json && json.data !== undefined ? json.data : json;
}

/** Builds an element: attributes (on* as listeners), then children (strings become text, never markup). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith("on")) {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "value") {
      element.value = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) {
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return element;
}

const link = (href, ...children) => h("a", { href }, ...children);
const badge = (status) => h("span", { class: `status status-${status}`, "data-status": status }, status);
const when = (instant) => (instant ? new Date(instant).toLocaleString() : "");
const enc = encodeURIComponent;

// ---- routing: every page is a path under /console; links are followed without a reload, back and reload work ----

const routes = [
  [/^\/console\/?$/, inboxPage],
  [/^\/console\/tasks\/?$/, inboxPage],
  [/^\/console\/tasks\/([^/]+)\/([^/]+)$/, taskPage],
  [/^\/console\/conversations\/?$/, conversationsPage],
  [/^\/console\/conversations\/([^/]+)\/([^/]+)$/, conversationPage],
  [/^\/console\/instances\/?$/, instancesPage],
  [/^\/console\/instances\/([^/]+)$/, instancePage],
  [/^\/console\/operators\/?$/, operatorsPage],
];

/** What the current page started (streams, timers, sockets): stopped when the page is left. */
let cleanups = [];
/** Each render's number, and the signal that aborts the requests of a page once another is rendered. */
let generation = 0;
let pageRequests = new AbortController();
let pageSignal = pageRequests.signal;
const view = () => document.getElementById("view");

function onLeave(stop) {
  cleanups.push(stop);
}

function navigate(href) {
  history.pushState(null, "", href);
  render();
}

async function render() {
  const mine = ++generation;
  pageRequests.abort();
  pageRequests = new AbortController();
  pageSignal = pageRequests.signal;
  cleanups.forEach((stop) => stop());
  cleanups = [];
  const path = location.pathname;
  const [, page, args] = routes.map(([pattern, handler]) => [pattern, handler, path.match(pattern)])
    .find(([, , match]) => match) || [null, notFoundPage, []];
  for (const navLink of document.querySelectorAll("header nav a[data-nav]")) {
    const section = navLink.getAttribute("data-nav");
    const current = section === "inbox" ? /^\/console(\/tasks.*)?\/?$/.test(path) : path.startsWith(`/console/${section}`);
    navLink.toggleAttribute("aria-current", current);
  }
  try {
    await page(...args.slice(1).map(decodeURIComponent));
  } catch (failure) {
    if (mine !== generation) {
      return; // a page left while it loaded: its requests were aborted, and another page is showing
    }
    if (failure instanceof SignInNeeded) {
      signInPage();
    } else {
      show(h("h1", {}, "Something went wrong"), h("p", { class: "error", role: "alert" }, failure.message));
    }
  }
}

function show(...children) {
  const main = view();
  main.replaceChildren(...children);
}

/** Runs an action from a button or form, showing its failure next to it instead of losing it. */
async function act(output, action) {
  output.textContent = "";
  output.classList.remove("error");
  try {
    await action();
  } catch (failure) {
    if (failure instanceof SignInNeeded) {
      signInPage();
      return;
    }
    output.classList.add("error");
    output.textContent = failure.message;
  }
}

/** A form's submit handler: the page stays where it is, and the action runs as {@link act} runs it. */
function submitted(output, action) {
  return (event) => {
    event.preventDefault();
    act(output, action);
  };
}

document.addEventListener("click", (event) => {
  const anchor = event.target.closest("a[href^='/console']");
  if (anchor && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0) {
    event.preventDefault();
    navigate(anchor.getAttribute("href"));
  }
});
window.addEventListener("popstate", render);

// ---- signing in and out ----

async function whoAmI() {
  const who = document.getElementById("who");
  const signOut = document.getElementById("sign-out");
  try {
    const me = await api("GET", "/api/v1/owners/me");
    who.textContent = `owner ${me.owner_id} (${me.credential})`;
    signOut.hidden = false;
  } catch (failure) {
    who.textContent = "";
    signOut.hidden = true;
  }
}

function signInPage() {
  cleanups.forEach((stop) => stop());
  cleanups = [];
  document.getElementById("who").textContent = "";
  document.getElementById("sign-out").hidden = true;
  const output = h("p", { id: "sign-in-result", role: "alert" });
  const key = h("input", { id: "api-key", type: "password", autocomplete: "off", required: true, placeholder: "oag_…" });
  const email = h("input", { id: "email", type: "email", autocomplete: "username", required: true });
  const password = h("input", { id: "password", type: "password", autocomplete: "current-password", required: true });
  const signedIn = async (body) => {
    await api("POST", "/api/v1/auth/session", body);
    await whoAmI();
    render();
  };
  show(
    h("h1", {}, "Sign in"),
    h("form", { id: "key-form", onsubmit: submitted(output, () => signedIn({ api_key: key.value })) },
      h("label", { for: "api-key" }, "API key"), key, h("button", { type: "submit" }, "Sign in with the key")),
    h("form", { id: "password-form", onsubmit: submitted(output, () => signedIn({ email: email.value, password: password.value })) },
      h("label", { for: "email" }, "Email"), email, h("label", { for: "password" }, "Password"), password,
      h("button", { type: "submit" }, "Sign in")),
    output,
    h("p", { class: "hint" }, "The console keeps no key: it holds a session cookie that ends within the hour."));
  key.focus();
}

document.getElementById("sign-out").addEventListener("click", async () => {
  await fetch("/api/v1/auth/session", { method: "DELETE", credentials: "same-origin" });
  await whoAmI();
  signInPage();
});

// ---- the inbox: tasks across agents, newest change first, filtered, live, paged back to the oldest ----

async function agentsByKey() {
  const agents = (await api("GET", "/api/v1/agents?limit=200")).agents || [];
  return new Map(agents.map((agent) => [agent.id, agent]));
}

async function inboxPage() {
  const query = new URLSearchParams(location.search);
  const agentFilter = query.get("agent") || "";
  const statusFilter = query.get("status") || "";
  const agents = await agentsByKey();
  const rows = new Map();
  const body = h("tbody", { id: "inbox-rows" });
  const older = h("button", { type: "button", id: "older", hidden: true }, "Older");
  const output = h("p", { role: "status" });
  let cursor = null;

  const matches = (task) => (!agentFilter || task.agent_id === agentFilter) && (!statusFilter || task.status === statusFilter);
  const row = (task) => h("tr", { "data-task": task.task_id, "data-offset": task.offset },
    h("td", {}, badge(task.status)),
    h("td", {}, link(`/console/tasks/${enc(task.agent_id)}/${enc(task.task_id)}`, task.task_id)),
    h("td", {}, (agents.get(task.agent_id) || {}).name || task.agent_id),
    h("td", { class: "excerpt" }, (task.text || "").slice(0, 120)),
    h("td", {}, when(task.updated_at)));
  const put = (task, atTop) => {
    const old = rows.get(task.task_id);
    if (old && Number(old.dataset.offset) >= task.offset) {
      return; // what the list shows is as new or newer (the stream and the first page may both carry a task)
    }
    if (old) {
      old.remove();
      rows.delete(task.task_id);
    }
    if (!matches(task)) {
      return;
    }
    const fresh = row(task);
    rows.set(task.task_id, fresh);
    if (atTop) {
      body.prepend(fresh);
    } else {
      body.append(fresh);
    }
  };
  const params = (extra) => {
    const search = new URLSearchParams(extra);
    if (agentFilter) search.set("agentId", agentFilter);
    if (statusFilter) search.set("status", statusFilter);
    return search.toString();
  };
  const loadOlder = async () => {
    const page = await api("GET", `/api/v1/tasks?${params(cursor ? { limit: 50, cursor } : { limit: 50 })}`);
    page.tasks.forEach((task) => put(task, false));
    cursor = page.next_cursor;
    older.hidden = cursor === null || cursor === undefined;
  };
  older.addEventListener("click", () => act(output, loadOlder));

  // live: the inbox's stream of every change from now on, whatever its status (a task leaving the filter leaves the list),
  // opened before the first page is read so that nothing falls between the two (a task in both is put once)
  let live = null;
  const follow = () => {
    const search = new URLSearchParams();
    if (agentFilter) search.set("agentId", agentFilter);
    live = new EventSource(`/api/v1/tasks/events?${search}`);
    live.addEventListener("task", (event) => put(JSON.parse(event.data), true));
  };
  onLeave(() => live && live.close());

  const agentSelect = h("select", { id: "filter-agent", name: "agent" }, h("option", { value: "" }, "All agents"),
    [...agents.values()].map((agent) => h("option", { value: agent.id, selected: agent.id === agentFilter }, agent.name)));
  const statusSelect = h("select", { id: "filter-status", name: "status" }, h("option", { value: "" }, "Any status"),
    TASK_STATUSES.map((status) => h("option", { value: status, selected: status === statusFilter }, status)));
  const filters = h("form", { class: "filters", onchange: () => {
    const next = new URLSearchParams();
    if (agentSelect.value) next.set("agent", agentSelect.value);
    if (statusSelect.value) next.set("status", statusSelect.value);
    navigate(`/console${next.toString() ? `?${next}` : ""}`);
  }, onsubmit: (event) => event.preventDefault() },
    h("label", { for: "filter-agent" }, "Agent"), agentSelect, h("label", { for: "filter-status" }, "Status"), statusSelect);

  show(h("h1", {}, "Inbox"), newTaskForm(agents), filters,
    h("table", { class: "list" }, h("thead", {}, h("tr", {}, ["Status", "Task", "Agent", "Text", "Changed"].map((name) => h("th", {}, name)))), body),
    older, output);
  follow();
  await loadOlder();
}

function newTaskForm(agents) {
  const output = h("p", { role: "status" });
  const agent = h("select", { id: "new-task-agent", required: true },
    [...agents.values()].map((candidate) => h("option", { value: candidate.id }, candidate.name)));
  const message = h("textarea", { id: "new-task-message", rows: 2, required: true, placeholder: "What should the agent do?" });
  return h("form", { id: "new-task", class: "compose", onsubmit: submitted(output, async () => {
    const created = await api("POST", `/api/v1/agents/${enc(agent.value)}/tasks`, { message: message.value });
    navigate(`/console/tasks/${enc(agent.value)}/${enc(created.task_id)}`);
  }) },
    h("label", { for: "new-task-agent" }, "Agent"), agent, h("label", { for: "new-task-message" }, "Message"), message,
    h("button", { type: "submit", disabled: agents.size === 0 }, "Create task"), output);
}

// ---- a task: status, its messages as they stream, cancel and continue, its history, webhooks, and the task as of any instant ----

async function taskPage(agentId, taskId) {
  const base = `/api/v1/agents/${enc(agentId)}/tasks/${enc(taskId)}`;
  let task = await api("GET", base);
  const status = h("span", { id: "task-status" }, badge(task.status));
  const reply = h("pre", { id: "reply", class: "reply", "aria-live": "polite" }, task.text || "");
  const log = h("ol", { id: "messages", class: "log" });
  const timeline = h("ol", { id: "timeline", class: "timeline" });
  const output = h("p", { id: "task-output", role: "status" });
  const cancel = h("button", { type: "button", id: "cancel" }, "Cancel task");
  const answer = h("textarea", { id: "continue-message", rows: 2 });
  const continueForm = h("form", { id: "continue", class: "compose", hidden: true, onsubmit: submitted(output, async () => {
    await api("POST", `${base}/continue`, { message: answer.value });
    answer.value = "";
    follow();
  }) }, h("label", { for: "continue-message" }, "Answer"), answer, h("button", { type: "submit" }, "Continue"));
  cancel.addEventListener("click", () => act(output, () => api("POST", `${base}/cancel`)));

  const setStatus = (next) => {
    task.status = next;
    status.replaceChildren(badge(next));
    cancel.disabled = FINAL.has(next);
    continueForm.hidden = next !== "input_required" && next !== "auth_required";
  };
  setStatus(task.status);

  const history = async () => {
    const audit = await api("GET", `/api/v1/audit/events?resource_type=task&resource_id=${enc(taskId)}&limit=1000`);
    timeline.replaceChildren(...audit.events.map((event) => h("li", {},
      h("time", { datetime: event.occurred_at }, when(event.occurred_at)), " ", h("strong", {}, event.type), " by ", event.actor || "the platform")));
  };

  // the stream: deltas fold into the reply of their turn; whole messages join the log; done ends it. Followed again
  // after a continue from the last event seen, so nothing shows twice.
  let source = null;
  let replyTurn = null;
  let seen = null;
  const follow = () => {
    if (source) {
      source.close();
    }
    source = new EventSource(seen === null ? `${base}/events` : `${base}/events?since=${enc(seen)}`);
    const handle = (name, data) => {
      if (name === "agent_reply_delta") {
        if (replyTurn !== data.turn) {
          replyTurn = data.turn;
          reply.textContent = "";
        }
        reply.textContent += data.text;
      } else if (name === "agent_message" || name === "user_message") {
        log.append(h("li", { class: `entry role-${data.role}` }, h("span", { class: "meta" }, `${data.role} · turn ${data.turn}`), h("pre", {}, data.text)));
        if (name === "agent_message") {
          replyTurn = data.turn;
          reply.textContent = data.text;
        }
      } else if (name === "agent_thought_chunk" || name === "agent_message_chunk") {
        log.append(h("li", { class: "entry chunk" }, h("span", { class: "meta" }, name.replace(/_/g, " ")), data.text));
      } else if (name === "task_status") {
        setStatus(data.status);
        history().catch(() => {});
        refreshWebhooks().catch(() => {});
      } else if (name === "done") {
        source.close();
      }
    };
    for (const name of STREAM_EVENTS) {
      source.addEventListener(name, (event) => {
        if (event.lastEventId && seen !== null && BigInt(event.lastEventId) <= BigInt(seen)) {
          return;
        }
        if (event.lastEventId) {
          seen = event.lastEventId;
        }
        handle(name, JSON.parse(event.data));
      });
    }
    source.addEventListener("error", (event) => {
      if (event.data) {
        const data = JSON.parse(event.data);
        output.textContent = `${data.code}: ${data.message}`;
      }
    });
  };
  onLeave(() => source && source.close());

  // the task as of an instant: from its creation to now
  const created = Date.parse(task.created_at);
  const slider = h("input", { id: "as-of", type: "range", min: created, max: Date.now(), step: 1, value: Date.now(),
    "aria-label": "Instant to show the task at" });
  const asOfInstant = h("time", { id: "as-of-instant" });
  const asOfStatus = h("span", { id: "as-of-status" });
  const asOfText = h("pre", { id: "as-of-text", class: "reply" });
  let asOfTimer = null;
  const showAsOf = () => {
    const instant = new Date(Number(slider.value)).toISOString();
    asOfInstant.textContent = when(instant);
    asOfInstant.setAttribute("datetime", instant);
    clearTimeout(asOfTimer);
    asOfTimer = setTimeout(() => act(asOfStatus, async () => {
      const then = await api("GET", `${base}?as_of=${enc(instant)}`);
      asOfStatus.replaceChildren(badge(then.status));
      asOfText.textContent = then.text || "";
    }), 150);
  };
  slider.addEventListener("input", showAsOf);
  onLeave(() => clearTimeout(asOfTimer));

  // webhooks of the task and their deliveries, redelivered from here
  const webhooks = h("div", { id: "webhooks" });
  const refreshWebhooks = async () => {
    const list = (await api("GET", `${base}/webhooks`)).webhooks || [];
    const sections = await Promise.all(list.map(async (webhook) => {
      const id = webhook.webhook_id || webhook.id;
      const deliveries = (await api("GET", `${base}/webhooks/${enc(id)}/deliveries`)).deliveries || [];
      return h("section", { class: "webhook", "data-webhook": id },
        h("h3", {}, webhook.url),
        h("table", { class: "list" },
          h("thead", {}, h("tr", {}, ["Delivery", "Status", "Attempts", "Last answer", "Last error", "Next attempt", ""].map((name) => h("th", {}, name)))),
          h("tbody", {}, deliveries.map((delivery) => {
            const rowOutput = h("span", { role: "status" });
            return h("tr", { "data-delivery": delivery.delivery_id, "data-status": delivery.status },
              h("td", {}, delivery.delivery_id), h("td", {}, badge(delivery.status)), h("td", {}, delivery.attempt_num),
              h("td", {}, delivery.last_response_status ?? ""), h("td", { class: "excerpt" }, delivery.last_error || ""),
              h("td", {}, when(delivery.next_attempt_at)),
              h("td", {}, h("button", { type: "button", class: "redeliver", onclick: () => act(rowOutput, async () => {
                await api("POST", `${base}/webhooks/${enc(id)}/deliveries/${enc(delivery.delivery_id)}/redeliver`);
                await refreshWebhooks();
              }) }, "Redeliver"), rowOutput));
          }))));
    }));
    webhooks.replaceChildren(...(sections.length ? sections : [h("p", {}, "No webhooks.")]));
  };
  const hookUrl = h("input", { id: "webhook-url", type: "url", required: true, placeholder: "https://…" });
  const hookOutput = h("span", { role: "status" });
  const hookForm = h("form", { id: "new-webhook", class: "inline", onsubmit: submitted(hookOutput, async () => {
    await api("POST", `${base}/webhooks`, { url: hookUrl.value });
    hookUrl.value = "";
    await refreshWebhooks();
  }) }, h("label", { for: "webhook-url" }, "Webhook URL"), hookUrl, h("button", { type: "submit" }, "Add webhook"), hookOutput);
  // the history (the audit trail is chained a moment after the change) and the deliveries (retried on their schedule)
  // are read again every few seconds
  const refreshTimer = setInterval(() => {
    history().catch(() => {});
    refreshWebhooks().catch(() => {});
  }, 3000);
  onLeave(() => clearInterval(refreshTimer));

  show(
    h("p", {}, link("/console", "← Inbox")),
    h("h1", {}, "Task ", h("code", {}, taskId), " ", status),
    h("p", { class: "meta" }, "Agent ", h("code", {}, agentId), " · created ", when(task.created_at)),
    h("div", { class: "actions" }, cancel), continueForm, output,
    h("h2", {}, "Reply"), reply,
    h("h2", {}, "Messages"), log,
    h("h2", {}, "History"), timeline,
    h("h2", {}, "As of"), h("div", { class: "as-of" }, slider, asOfInstant, asOfStatus), asOfText,
    h("h2", {}, "Webhooks"), hookForm, webhooks);
  follow();
  // a task created a moment ago may not be in the audit trail yet (its history answers 404 until it is chained): the
  // timer above reads it again
  await Promise.all([history().catch(() => timeline.replaceChildren(h("li", {}, "Not recorded yet."))),
    refreshWebhooks().catch((failure) => webhooks.replaceChildren(h("p", { class: "error" }, failure.message)))]);
}

// ---- conversations: per agent, a chat with live turns ----

async function conversationsPage() {
  const query = new URLSearchParams(location.search);
  const agents = await agentsByKey();
  const agentId = query.get("agent") || (agents.size ? agents.keys().next().value : "");
  const output = h("p", { role: "status" });
  const agentSelect = h("select", { id: "conversation-agent", onchange: () => navigate(`/console/conversations?agent=${enc(agentSelect.value)}`) },
    [...agents.values()].map((agent) => h("option", { value: agent.id, selected: agent.id === agentId }, agent.name)));
  const list = h("ul", { id: "conversations", class: "list" });
  const title = h("input", { id: "conversation-title", placeholder: "Title (optional)" });
  const start = h("form", { id: "new-conversation", class: "inline", onsubmit: submitted(output, async () => {
    const created = await api("POST", `/api/v1/agents/${enc(agentId)}/conversations`, title.value ? { title: title.value } : {});
    navigate(`/console/conversations/${enc(agentId)}/${enc(created.conversation_id)}`);
  }) }, h("label", { for: "conversation-title" }, "New conversation"), title, h("button", { type: "submit", disabled: !agentId }, "Start"));
  show(h("h1", {}, "Conversations"), h("label", { for: "conversation-agent" }, "Agent"), agentSelect, start, output, list);
  if (!agentId) {
    list.append(h("li", {}, "No agents yet: create one on an instance."));
    return;
  }
  const page = await api("GET", `/api/v1/agents/${enc(agentId)}/conversations?limit=100`);
  list.replaceChildren(...page.conversations.map((conversation) => h("li", {},
    link(`/console/conversations/${enc(agentId)}/${enc(conversation.conversation_id)}`, conversation.title || conversation.conversation_id),
    " ", badge(conversation.status), " ", when(conversation.updated_at))));
}

async function conversationPage(agentId, conversationId) {
  const base = `/api/v1/agents/${enc(agentId)}/conversations/${enc(conversationId)}`;
  const conversation = await api("GET", base);
  const status = h("span", { id: "conversation-status" });
  const turnStatus = h("span", { id: "turn-status" });
  // the stream and a read after an action both say how the latest turn stands; whichever arrives last must not show an
  // older state (a read may come from before the stream's news): a later turn wins, and within a turn an end wins over running
  let shownTurn = { turn: -1, ended: false };
  const showTurn = (turn, turnState) => {
    if (!turnState) {
      return;
    }
    const ended = turnState !== "running";
    if (turn < shownTurn.turn || (turn === shownTurn.turn && shownTurn.ended && !ended)) {
      return;
    }
    shownTurn = { turn, ended };
    turnStatus.replaceChildren(badge(turnState));
  };
  let closed = false;
  const showStatus = (conversationState) => {
    closed = closed || conversationState === "closed";
    status.replaceChildren(badge(closed ? "closed" : conversationState));
  };
  showStatus(conversation.status);
  showTurn(conversation.turn, conversation.turn_status);
  const chat = h("ol", { id: "chat", class: "log" });
  const output = h("p", { role: "status" });
  const message = h("textarea", { id: "chat-message", rows: 2, required: true });
  const streaming = new Map();
  const bubble = (role, turn, text) => h("li", { class: `entry role-${role}`, "data-turn": turn },
    h("span", { class: "meta" }, `${role} · turn ${turn}`), h("pre", {}, text));
  const append = (entry) => {
    if (entry.kind === "agent_reply_delta") {
      let pending = streaming.get(entry.turn);
      if (!pending) {
        pending = bubble("agent", entry.turn, "");
        pending.classList.add("streaming");
        streaming.set(entry.turn, pending);
        chat.append(pending);
      }
      pending.querySelector("pre").textContent += entry.text;
    } else if (entry.kind === "agent_message") {
      const pending = streaming.get(entry.turn);
      const whole = bubble("agent", entry.turn, entry.text);
      if (pending) {
        pending.replaceWith(whole);
        streaming.delete(entry.turn);
      } else {
        chat.append(whole);
      }
    } else if (entry.kind === "user_message") {
      chat.append(bubble("user", entry.turn, entry.text));
    }
  };
  const log = await api("GET", `${base}/messages?limit=1000`);
  log.messages.forEach((entry) => append(entry));
  const source = new EventSource(`${base}/events?since=${enc(log.latest_offset)}`);
  for (const name of STREAM_EVENTS) {
    source.addEventListener(name, (event) => {
      const data = JSON.parse(event.data);
      if (name === "conversation_status") {
        showStatus(data.status);
      } else if (name === "turn_status") {
        showTurn(data.turn, data.status);
        const pending = streaming.get(data.turn);
        if (pending && data.status !== "running") {
          // the turn ended without a whole reply (canceled, failed): what streamed stays, marked as cut short
          pending.classList.remove("streaming");
          pending.querySelector(".meta").textContent += ` · ${data.status}`;
          streaming.delete(data.turn);
        }
      } else if (name === "done") {
        source.close();
      } else {
        append({ kind: name, ...data });
      }
    });
  }
  onLeave(() => source.close());
  const refresh = async () => {
    const now = await api("GET", base);
    showStatus(now.status);
    showTurn(now.turn, now.turn_status);
  };
  const send = h("form", { id: "chat-send", class: "compose", onsubmit: submitted(output, async () => {
    await api("POST", `${base}/messages`, { message: message.value });
    message.value = "";
    await refresh();
  }) }, h("label", { for: "chat-message" }, "Message"), message, h("button", { type: "submit" }, "Send"));
  const cancel = h("button", { type: "button", id: "cancel-turn", onclick: () => act(output, async () => {
    await api("POST", `${base}/cancel`);
    await refresh();
  }) }, "Cancel the running turn");
  const close = h("button", { type: "button", id: "close-conversation", onclick: () => act(output, async () => {
    await api("POST", `${base}/close`);
    await refresh();
  }) }, "Close");
  show(h("p", {}, link(`/console/conversations?agent=${enc(agentId)}`, "← Conversations")),
    h("h1", {}, conversation.title || "Conversation", " ", status, " ", turnStatus),
    chat, send, h("div", { class: "actions" }, cancel, close), output);
}

// ---- instances: lifecycle, the live screen (click on it), a terminal, runtime operations, fault rules ----

async function instancesPage() {
  const output = h("p", { role: "status" });
  const list = h("tbody", { id: "instances" });
  const load = async () => {
    const page = await api("GET", "/api/v1/instances?limit=200");
    list.replaceChildren(...page.instances.map((instance) => h("tr", { "data-instance": instance.id },
      h("td", {}, link(`/console/instances/${enc(instance.id)}`, instance.name || instance.id)), h("td", {}, badge(instance.status)),
      h("td", {}, `${instance.provider} · ${instance.region} · ${instance.kind}`), h("td", {}, when(instance.created_at)))));
  };
  const kind = h("select", { id: "new-instance-kind" }, ["linux", "windows", "mac", "android"].map((name) => h("option", { value: name }, name)));
  const deploy = h("form", { id: "new-instance", class: "inline", onsubmit: submitted(output, async () => {
    await api("POST", "/api/v1/instances", { provider: "local", region: "local", kind: kind.value });
    await load();
  }) }, h("label", { for: "new-instance-kind" }, "Deploy a local instance"), kind, h("button", { type: "submit" }, "Deploy"));
  show(h("h1", {}, "Instances"), deploy, output,
    h("table", { class: "list" }, h("thead", {}, h("tr", {}, ["Instance", "Status", "Where", "Created"].map((name) => h("th", {}, name)))), list));
  await load();
  const timer = setInterval(() => load().catch(() => {}), 3000);
  onLeave(() => clearInterval(timer));
}

async function instancePage(instanceId) {
  const base = `/api/v1/instances/${enc(instanceId)}`;
  let instance = await api("GET", base);
  const surface = instance.kind === "android" ? "mobile" : "computer";
  const output = h("p", { id: "instance-output", role: "status" });
  const status = h("span", { id: "instance-status" }, badge(instance.status));
  const refresh = async () => {
    instance = await api("GET", base);
    status.replaceChildren(badge(instance.status));
  };
  const lifecycle = ["start", "stop", "restart"].map((action) => h("button", { type: "button", id: `instance-${action}`,
    onclick: () => act(output, async () => {
      await api("POST", `${base}/${action}`);
      await refresh();
    }) }, action[0].toUpperCase() + action.slice(1)));
  const destroy = h("button", { type: "button", id: "instance-destroy", class: "danger", onclick: () => act(output, async () => {
    await api("DELETE", base);
    navigate("/console/instances");
  }) }, "Destroy");

  // the screen: a screenshot refreshed every few seconds; a click on it is a click at that point of the screen
  const screen = h("img", { id: "screen", alt: "The instance's screen (click to click there)" });
  const screenStamp = h("span", { id: "screen-stamp", class: "meta" });
  let shots = 0;
  const shoot = async () => {
    const shot = await api("POST", `${base}/${surface}/screenshot`);
    screen.src = `data:image/${shot.format || "png"};base64,${shot.data_b64}`;
    screen.dataset.width = shot.width;
    screen.dataset.height = shot.height;
    shots += 1;
    screen.dataset.shot = shots;
    screenStamp.textContent = `taken ${new Date().toLocaleTimeString()}`;
  };
  const clickAt = (x, y) => act(output, async () => {
    await api("POST", `${base}/${surface}/${surface === "mobile" ? "tap" : "click"}`, { x, y });
    await shoot();
  });
  screen.addEventListener("click", (event) => {
    const box = screen.getBoundingClientRect();
    clickAt(Math.round((event.clientX - box.left) * Number(screen.dataset.width) / box.width),
      Math.round((event.clientY - box.top) * Number(screen.dataset.height) / box.height));
  });
  // the same from the keyboard: a point of the screen, in its pixels
  const pointX = h("input", { id: "screen-x", type: "number", min: 0, value: 0, "aria-label": "x" });
  const pointY = h("input", { id: "screen-y", type: "number", min: 0, value: 0, "aria-label": "y" });
  const pointForm = h("form", { class: "inline", onsubmit: (event) => {
    event.preventDefault();
    clickAt(Number(pointX.value), Number(pointY.value));
  } }, h("span", {}, "Click at"), pointX, pointY, h("button", { type: "submit" }, surface === "mobile" ? "Tap" : "Click"));
  const typed = h("input", { id: "screen-type", placeholder: "Text to type on the instance" });
  const typeForm = h("form", { class: "inline", onsubmit: submitted(output, async () => {
    await api("POST", `${base}/${surface}/type`, { text: typed.value });
    typed.value = "";
    await shoot();
  }) }, h("label", { for: "screen-type" }, "Type"), typed, h("button", { type: "submit" }, "Type"));
  const shotTimer = setInterval(() => shoot().catch(() => {}), 5000);
  onLeave(() => clearInterval(shotTimer));

  // the terminal: a session's single-use ticket opens its WebSocket; xterm.js draws it
  const terminalBox = h("div", { id: "terminal", class: "terminal" });
  const openTerminal = h("button", { type: "button", id: "open-terminal", onclick: () => act(output, async () => {
    const session = await api("POST", `${base}/terminal-sessions`, {});
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${base}/terminal-sessions/${enc(session.terminal_id)}/attach`,
      ["terminal.v1", `ticket.${session.ticket}`]);
    socket.binaryType = "arraybuffer";
    const terminal = new window.Terminal({ convertEol: true, screenReaderMode: true, cols: 100, rows: 24 });
    terminalBox.replaceChildren();
    terminal.open(terminalBox);
    terminal.onData((data) => socket.readyState === WebSocket.OPEN && socket.send(data));
    socket.addEventListener("message", (event) => terminal.write(typeof event.data === "string" ? event.data : new Uint8Array(event.data)));
    socket.addEventListener("close", (event) => terminal.write(`\r\n[closed: ${event.code} ${event.reason}]\r\n`));
    socket.addEventListener("open", () => {
      terminalBox.dataset.open = "true";
      terminal.focus();
    });
    onLeave(() => {
      socket.close();
      terminal.dispose();
    });
  }) }, "Open a terminal");

  // runtime operations: a JSON-RPC call, then its event stream
  const method = h("input", { id: "rpc-method", value: "agent/create", "aria-label": "Method" });
  const params = h("textarea", { id: "rpc-params", rows: 2, "aria-label": "Params (JSON)" }, "{\"name\": \"console-agent\"}");
  const operationLog = h("ol", { id: "operation-events", class: "log" });
  const call = h("form", { id: "rpc", class: "compose", onsubmit: submitted(output, async () => {
    const answer = await api("POST", `${base}/methods`, { jsonrpc: "2.0", id: "console", method: method.value, params: JSON.parse(params.value || "{}") });
    const operationId = answer.result && answer.result.id;
    if (!operationId) {
      operationLog.replaceChildren(h("li", {}, JSON.stringify(answer)));
      return;
    }
    operationLog.replaceChildren(h("li", {}, `operation ${operationId}`));
    const events = new EventSource(`${base}/operations/${enc(operationId)}/events`);
    for (const type of OPERATION_EVENTS) {
      events.addEventListener(`operation.${type}`, (message) => {
        operationLog.append(h("li", { "data-event": type }, h("strong", {}, `operation.${type}`), " ", message.data));
        if (OPERATION_ENDS.has(type)) events.close();
      });
    }
    onLeave(() => events.close());
  }) }, h("label", { for: "rpc-method" }, "Method"), method, h("label", { for: "rpc-params" }, "Params"), params,
    h("button", { type: "submit" }, "Call"));

  // fault rules of the local provider
  const faults = h("pre", { id: "faults" });
  const faultRules = h("textarea", { id: "fault-rules", rows: 3, "aria-label": "Fault rules (JSON array)" }, "[]");
  const loadFaults = async () => {
    const current = await api("GET", `${base}/faults`);
    faults.textContent = JSON.stringify(current, null, 2);
  };
  const setFaults = h("form", { class: "compose", onsubmit: submitted(output, async () => {
    await api("PUT", `${base}/faults`, { rules: JSON.parse(faultRules.value || "[]") });
    await loadFaults();
  }) }, h("label", { for: "fault-rules" }, "Fault rules"), faultRules, h("button", { type: "submit" }, "Set"),
    h("button", { type: "button", onclick: () => act(output, async () => { await api("DELETE", `${base}/faults`); await loadFaults(); }) }, "Clear"));

  show(h("p", {}, link("/console/instances", "← Instances")),
    h("h1", {}, instance.name || instanceId, " ", status),
    h("p", { class: "meta" }, `${instance.provider} · ${instance.region} · ${instance.kind}`),
    h("div", { class: "actions" }, lifecycle, destroy), output,
    h("h2", {}, "Screen"), h("div", { class: "screen" }, screen), screenStamp, pointForm, typeForm,
    h("h2", {}, "Terminal"), openTerminal, terminalBox,
    h("h2", {}, "Runtime operations"), call, operationLog,
    h("h2", {}, "Fault rules"), setFaults, faults);
  await Promise.all([shoot().catch((failure) => { screenStamp.textContent = failure.message; }), loadFaults().catch(() => {})]);
}

// ---- operators: the node's processors (lag, segments, parked events and their retry), the audit chain, quotas ----

async function operatorsPage() {
  const output = h("p", { id: "verify-result", role: "status" });
  const checkpoints = h("div", { id: "checkpoints" });
  const processors = h("tbody", { id: "processors" });
  const processorOutput = h("p", { role: "status" });
  const quota = h("div", { id: "quota" });
  const loadProcessors = async () => {
    const list = (await api("GET", "/api/v1/processors")).processors;
    processors.replaceChildren(...list.map((processor) => h("tr", { "data-processor": processor.name },
      h("td", {}, processor.name), h("td", {}, processor.position ?? "—"), h("td", {}, processor.lag ?? "—"),
      h("td", {}, `${processor.segments_here} of ${processor.segments}`),
      h("td", {}, processor.parked_events ? `${processor.parked_events} in ${processor.parked_sequences} sequence(s) since ${when(processor.oldest_parked_at)}` : "none"),
      h("td", {}, h("button", { type: "button", class: "retry", disabled: !processor.parked_events, onclick: () => act(processorOutput, async () => {
        const retry = await api("POST", `/api/v1/processors/${enc(processor.name)}/dead-letters/retry`);
        processorOutput.textContent = `retry ${retry.retry_id} asked of ${retry.processor}`;
        await loadProcessors();
      }) }, "Retry parked")))));
  };
  const loadCheckpoints = async () => {
    const list = await api("GET", "/api/v1/audit/checkpoints?limit=1");
    const last = (list.checkpoints || [])[0];
    checkpoints.replaceChildren(last
      ? h("p", { id: "last-checkpoint" }, `Last checkpoint: ${last.position} event(s), signed ${when(last.signed_at)}`)
      : h("p", { id: "last-checkpoint" }, "No checkpoint signed yet."));
  };
  const loadQuota = async () => {
    const me = await api("GET", "/api/v1/owners/me");
    const budget = (name, left) => h("li", {}, `${name}: ${left.remaining} of ${left.limit} a minute left (full again in ${left.reset_seconds} s)`);
    quota.replaceChildren(
      h("p", {}, `Your credential may make ${me.rate_limit_per_minute} requests a minute`,
        lastQuota ? `; ${lastQuota.remaining} left now.` : "."),
      h("ul", { id: "control-budget" }, budget("Control reads (screenshots)", me.control_budget.info), budget("Control actions", me.control_budget.actions)));
  };
  const verify = h("button", { type: "button", id: "verify" }, "Verify the audit chain");
  verify.addEventListener("click", () => act(output, async () => {
    output.textContent = "Verifying…";
    const result = await api("POST", "/api/v1/audit/verifications");
    output.dataset.ok = result.ok;
    output.textContent = result.ok ? `ok: ${result.checked} event(s) match the chain and every checkpoint its signature`
      : `MISMATCH after ${result.checked} matching event(s): ${result.mismatch}`;
  }));
  show(h("h1", {}, "Operators"),
    h("h2", {}, "Event processors on this node"),
    h("table", { class: "list" }, h("thead", {}, h("tr", {}, ["Processor", "Position", "Lag", "Segments here", "Parked", ""].map((name) => h("th", {}, name)))), processors),
    processorOutput,
    h("h2", {}, "Audit chain"), checkpoints, verify, output,
    h("h2", {}, "Quotas"), quota);
  await Promise.all([loadProcessors(), loadCheckpoints(), loadQuota()]);
  const timer = setInterval(() => loadProcessors().catch(() => {}), 3000);
  onLeave(() => clearInterval(timer));
}

function notFoundPage() {
  show(h("h1", {}, "Not found"), h("p", {}, "The console has no such page. "), link("/console", "Go to the inbox"));
}

whoAmI().finally(render);
