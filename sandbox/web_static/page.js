// The sandbox's web page: one person's Discord client for the sandbox (see sandbox/web.py).
// Every text from a message is escaped (esc) before any markup is added around it.
"use strict";

const page = {
  you: null, home: null, current: null,
  channels: new Map(), messages: new Map(), unread: new Set(),
  members: [], commands: [],
};
const $ = (id) => document.getElementById(id);

// -- text ------------------------------------------------------------------------------------------

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function safeUrl(url) {
  const text = String(url ?? "");
  return /^(https?:\/\/|\/(files|emojis)\/)/.test(text) ? text : "";
}

function timestamp(seconds, style) {
  const date = new Date(seconds * 1000);
  if (style === "R") {
    const delta = Math.round((date - Date.now()) / 1000);
    const size = Math.abs(delta);
    const [amount, unit] = size < 60 ? [size, "second"] : size < 3600 ? [Math.round(size / 60), "minute"]
      : size < 86400 ? [Math.round(size / 3600), "hour"] : [Math.round(size / 86400), "day"];
    const phrase = `${amount} ${unit}${amount === 1 ? "" : "s"}`;
    return delta >= 0 ? `in ${phrase}` : `${phrase} ago`;
  }
  if (style === "t" || style === "T") return date.toLocaleTimeString();
  if (style === "d" || style === "D") return date.toLocaleDateString();
  return date.toLocaleString();
}

// Discord's inline markdown on one line: code, emojis, mentions, timestamps, links, bold, italics...
function inline(text, msg) {
  const kept = [];
  const keep = (html) => `\u0001${kept.push(html) - 1}\u0002`;
  let html = esc(text)
    .replace(/`([^`]+)`/g, (_, code) => keep(`<code>${code}</code>`))
    .replace(/&lt;(a?):(\w+):(\d+)&gt;/g, (_, a, name, id) => keep(msg.emojis && msg.emojis[id]
      ? `<img class="emoji" src="${esc(safeUrl(msg.emojis[id]))}" alt=":${name}:" title=":${name}:">`
      : `:${name}:`))
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => keep(
      `<span class="mention">@${esc((msg.mentions && msg.mentions[id]) || "unknown-user")}</span>`))
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => keep(page.channels.has(id)
      ? `<button type="button" class="mention channel-link" data-channel="${id}">#${esc(page.channels.get(id).name)}</button>`
      : '<span class="mention">#unknown</span>'))
    .replace(/&lt;\/([\w -]+):\d+&gt;/g, (_, name) => keep(`<span class="mention">/${name}</span>`))
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, seconds, style) => keep(
      `<time class="ts" data-ts="${seconds}" data-style="${style || "f"}">${esc(timestamp(+seconds, style))}</time>`))
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, (_, label, url) => keep(maskedLink(label, url)))
    .replace(/https?:\/\/[^\s<]+/g, (text) => {  // the URL ends before <, >, punctuation, markdown
      const url = /^(?:(?!&[lg]t;)\S)*?(?=(?:[.,:;!?)\]*_~|]|&#39;|&quot;)*(?:&[lg]t;|$))/.exec(text)[0];
      return url.length > "https://".length ? keep(bareLink(url)) + text.slice(url.length) : text;
    });
  html = html
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/\*(?!\s)(.+?)\*/g, "<em>$1</em>")
    .replace(/(^|\W)_(?!\s)(.+?)_(?=\W|$)/g, "$1<em>$2</em>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>');
  return html.replace(/\u0001(\d+)\u0002/g, (_, index) => kept[+index]);
}

// A URL written out: a link to a message or channel on this page shows as Discord shows it, "#name › 💬",
// and jumps there; any other is a link (which, unlike a word, may break anywhere on a narrow screen).
function bareLink(url) {
  const target = pageTarget(url);
  if (target) {
    const channel = page.channels.get(target[1]);
    const name = channel.kind === "dm" ? "Direct message" : `#${channel.name}`;
    return jumpButton(target, url, `${esc(name)}${target[2] ? " › 💬" : ""}`);
  }
  return `<a class="url" href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`;
}

// A masked link, [words](url): the words, jumping on this page when the url is a message or channel here.
function maskedLink(label, url) {
  const target = pageTarget(url);
  return target ? jumpButton(target, url, label)
    : `<a href="${url}" target="_blank" rel="noopener noreferrer">${label}</a>`;
}

// The [url, channel id, message id] of a Discord link to a channel shown on this page, else null.
function pageTarget(url) {
  const target = /^https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/channels\/(?:\d+|@me)\/(\d+)(?:\/(\d+))?$/.exec(url);
  return target && page.channels.has(target[1]) ? target : null;
}

function jumpButton(target, url, html) {
  return `<button type="button" class="mention channel-link" data-channel="${target[1]}"`
    + `${target[2] ? ` data-message="${target[2]}"` : ""} title="${url}">${html}</button>`;
}

// Discord's block markdown: headings, -# small print, lists, quotes, code blocks, lines.
function markdown(text, msg) {
  const out = [];
  const lines = String(text ?? "").split("\n");
  let list = null;
  const closeList = () => { if (list) { out.push(`</${list}>`); list = null; } };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    let match;
    if (line.startsWith("```")) {
      closeList();
      const code = [];
      for (i += 1; i < lines.length && !lines[i].startsWith("```"); i += 1) code.push(lines[i]);
      out.push(`<pre><code>${esc(code.join("\n"))}</code></pre>`);
    } else if ((match = /^\s*(?:[-*]|(\d+)\.) (.*)$/.exec(line))) {
      const kind = match[1] ? "ol" : "ul";
      if (list !== kind) { closeList(); out.push(`<${kind}>`); list = kind; }
      out.push(`<li>${inline(match[2], msg)}</li>`);
    } else {
      closeList();
      if ((match = /^(#{1,3}) (.*)$/.exec(line))) {
        const level = match[1].length + 2;
        out.push(`<h${level}>${inline(match[2], msg)}</h${level}>`);
      } else if ((match = /^-# (.*)$/.exec(line))) {
        out.push(`<div class="subtext">${inline(match[1], msg)}</div>`);
      } else if ((match = /^>>?>? (.*)$/.exec(line))) {
        out.push(`<blockquote>${inline(match[1], msg)}</blockquote>`);
      } else if (line.trim() === "") {
        out.push('<div class="gap"></div>');
      } else {
        out.push(`<div class="line">${inline(line, msg)}</div>`);
      }
    }
  }
  closeList();
  return out.join("");
}

// -- messages ----------------------------------------------------------------------------------------

function colour(value) {
  return Number.isInteger(value) ? `#${value.toString(16).padStart(6, "0")}` : "";
}

function emojiHtml(emoji, msg) {
  if (!emoji) return "";
  if (emoji.id && msg.emojis && msg.emojis[emoji.id]) {
    return `<img class="emoji" src="${esc(safeUrl(msg.emojis[emoji.id]))}" alt=":${esc(emoji.name)}:">`;
  }
  return emoji.name ? `<span class="emoji-text">${esc(emoji.name)}</span>` : "";
}

function button(component, msg) {
  const label = `${emojiHtml(component.emoji, msg)}${esc(component.label || "")}`;
  if (component.style === 5) {
    return `<a class="button s2" href="${esc(safeUrl(component.url))}" target="_blank" rel="noopener noreferrer">${label} ↗</a>`;
  }
  return `<button type="button" class="button s${esc(component.style)}" data-message="${esc(msg.id)}"`
    + ` data-custom-id="${esc(component.custom_id)}"${component.disabled ? " disabled" : ""}>${label}</button>`;
}

function select(component, msg) {
  const attrs = `data-message="${esc(msg.id)}" data-custom-id="${esc(component.custom_id)}"`;
  const many = (component.max_values || 1) > 1;
  let options;
  if (component.type === 3) {
    options = (component.options || []).map((option) => `<option value="${esc(option.value)}"`
      + `${option.default ? " selected" : ""} title="${esc(option.description || "")}">`
      + `${esc(option.emoji && !option.emoji.id ? `${option.emoji.name} ` : "")}${esc(option.label)}`
      + `${option.description ? ` — ${esc(option.description)}` : ""}</option>`);
  } else if (component.type === 5) {
    options = page.members.map((member) => `<option value="${esc(member.id)}">${esc(member.name)}</option>`);
  } else {
    return `<select disabled><option>${esc(component.placeholder || "a menu the page does not offer")}</option></select>`;
  }
  const disabled = component.disabled ? " disabled" : "";
  if (many && component.type === 3) {  // several values: boxes to tick, then Choose
    const boxes = (component.options || []).map((option) => `<label title="${esc(option.description || "")}">`
      + `<input type="checkbox" value="${esc(option.value)}"${option.default ? " checked" : ""}${disabled}> `
      + `${esc(option.label)}</label>`);
    return `<fieldset class="multi" ${attrs}><legend>${esc(component.placeholder || "Choose")}`
      + ` (${esc(component.min_values ?? 1)}–${esc(component.max_values)})</legend>${boxes.join("")}`
      + `<button type="button" class="button s1 choose"${disabled}>Choose</button></fieldset>`;
  }
  const placeholder = `<option value="" disabled${component.options && component.options.some((o) => o.default)
    ? "" : " selected"}>${esc(component.placeholder || "Make a selection")}</option>`;
  return `<select ${attrs} aria-label="${esc(component.placeholder || "")}"${disabled}>${placeholder}${options.join("")}</select>`;
}

function media(item) {
  const url = safeUrl(item.media && item.media.url);
  return url ? `<img src="${esc(url)}" alt="${esc(item.description || "")}" title="${esc(item.description || "")}">` : "";
}

function components(list, msg) {
  return (list || []).map((component) => {
    switch (component.type) {
      case 1: return `<div class="row">${components(component.components, msg)}</div>`;
      case 2: return button(component, msg);
      case 3: case 5: case 6: case 7: case 8: return select(component, msg);
      case 9: return `<div class="section"><div>${components(component.components, msg)}</div>`
        + `<div class="accessory">${components([component.accessory], msg)}</div></div>`;
      case 10: return `<div class="text">${markdown(component.content, msg)}</div>`;
      case 11: return `<div class="thumbnail">${media(component)}</div>`;
      case 12: return `<div class="gallery">${(component.items || []).map(media).join("")}</div>`;
      case 13: return `<a class="file" href="${esc(safeUrl(component.file && component.file.url))}" download>`
        + `📎 ${esc(component.file && component.file.url ? component.file.url.split("/").pop() : "file")}</a>`;
      case 14: return `<hr class="separator${component.divider === false ? " blank" : ""}`
        + ` spacing${esc(component.spacing || 1)}">`;
      case 17: return `<div class="container" style="border-left-color:${colour(component.accent_color)}">`
        + `${components(component.components, msg)}</div>`;
      default: return `<div class="unknown">(a component of type ${esc(component.type)})</div>`;
    }
  }).join("");
}

function embed(data, msg) {
  const parts = [];
  if (data.author && data.author.name) parts.push(`<div class="embed-author">${esc(data.author.name)}</div>`);
  if (data.title) {
    const title = inline(data.title, msg);
    const url = safeUrl(data.url);
    parts.push(`<div class="embed-title">${url ? `<a href="${esc(url)}" target="_blank" rel="noopener noreferrer">${title}</a>` : title}</div>`);
  }
  if (data.description) parts.push(`<div class="embed-description">${markdown(data.description, msg)}</div>`);
  if (data.fields && data.fields.length) {
    parts.push(`<div class="fields">${data.fields.map((field) => `<div class="field${field.inline ? " inline" : ""}">`
      + `<div class="field-name">${inline(field.name, msg)}</div><div>${markdown(field.value, msg)}</div></div>`).join("")}</div>`);
  }
  if (data.image) parts.push(`<div class="gallery">${media({ media: data.image })}</div>`);
  if (data.footer && data.footer.text) parts.push(`<div class="subtext">${inline(data.footer.text, msg)}</div>`);
  const thumbnail = data.thumbnail ? `<div class="thumbnail">${media({ media: data.thumbnail })}</div>` : "";
  return `<div class="embed" style="border-left-color:${colour(data.color)}"><div class="embed-body">`
    + `${parts.join("")}</div>${thumbnail}</div>`;
}

function attachments(msg) {
  return msg.attachments.filter((file) => !file.referenced).map((file) => (
    file.content_type.startsWith("image/")
      ? `<img class="attachment" src="${esc(safeUrl(file.url))}" alt="${esc(file.filename)}">`
      : `<a class="file" href="${esc(safeUrl(file.url))}" download>📎 ${esc(file.filename)}</a>`)).join("");
}

function messageHtml(msg) {
  const parts = [];
  if (msg.command) {
    parts.push(`<div class="command-line"><span class="mention">@${esc(msg.command.user)}</span> used `
      + `<span class="command-name">/${esc(msg.command.name)}</span></div>`);
  }
  parts.push(`<div class="head"><span class="avatar" aria-hidden="true">${esc(msg.author.name.slice(0, 1).toUpperCase())}</span>`
    + `<span class="author">${esc(msg.author.name)}</span>${msg.author.bot ? '<span class="badge">APP</span>' : ""}`
    + `${msg.edited ? '<span class="edited">(edited)</span>' : ""}</div>`);
  const body = [];
  if (msg.loading) body.push(`<div class="loading">${esc(msg.author.name)} is thinking…</div>`);
  if (msg.components_v2) {
    body.push(components(msg.components, msg));
  } else {
    if (msg.content) body.push(`<div class="content">${markdown(msg.content, msg)}</div>`);
    body.push(...msg.embeds.map((data) => embed(data, msg)));
    body.push(components(msg.components, msg));
  }
  body.push(attachments(msg));
  parts.push(`<div class="body">${body.join("")}</div>`);
  if (msg.ephemeral) {
    parts.push(`<div class="only-you">👁 Only you can see this · <button type="button" class="dismiss"`
      + ` data-message="${esc(msg.id)}">Dismiss message</button></div>`);
  }
  return parts.join("");
}

function messageElement(msg) {
  const item = document.createElement("li");
  item.className = `message${msg.ephemeral ? " ephemeral" : ""}`;
  item.dataset.id = msg.id;
  item.innerHTML = messageHtml(msg);
  return item;
}

// -- the channel ------------------------------------------------------------------------------------

function compareIds(a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function showChannel(id) {
  page.current = id;
  page.unread.delete(id);
  const channel = page.channels.get(id);
  $("channel-title").textContent = channel.kind === "dm" ? "Direct message with the bot"
    : `${channel.kind === "thread" ? "🧵 " : "# "}${channel.name}`;
  const list = $("messages");
  list.replaceChildren(...[...page.messages.values()].filter((msg) => msg.channel.id === id)
    .sort((a, b) => compareIds(a.id, b.id)).map(messageElement));
  list.scrollTop = list.scrollHeight;
  renderChannels();
}

function renderChannels() {
  const list = $("channel-list");
  const order = { channel: 0, thread: 1, dm: 2 };  // the channel, its threads, the DM
  const channels = [...page.channels.values()].sort((a, b) => order[a.kind] - order[b.kind] || compareIds(a.id, b.id));
  list.replaceChildren(...channels.map((channel) => {
    const item = document.createElement("li");
    const link = document.createElement("button");
    link.type = "button";
    link.className = `channel ${channel.kind}${channel.id === page.current ? " current" : ""}`
      + `${page.unread.has(channel.id) ? " unread" : ""}`;
    link.textContent = channel.kind === "dm" ? "✉ Direct message" : `${channel.kind === "thread" ? "🧵" : "#"} ${channel.name}`;
    link.addEventListener("click", () => {
      showChannel(channel.id);
      showSidebar(false);
    });
    item.append(link);
    return item;
  }));
  $("sidebar-toggle").classList.toggle("unread", page.unread.size > 0);  // the list may be hidden (a phone)
}

// On a narrow screen (page.css) the channel list is hidden until ☰ is pressed; elsewhere it always shows.
function showSidebar(open) {
  document.body.classList.toggle("sidebar-open", open);
  $("sidebar-toggle").setAttribute("aria-expanded", String(open));
  if (open) {
    const current = $("channel-list").querySelector(".current");
    if (current) current.focus();
  }
}

$("sidebar-toggle").addEventListener("click", () => showSidebar(!document.body.classList.contains("sidebar-open")));
document.body.addEventListener("click", (event) => {
  if (event.target === document.body) showSidebar(false);  // the shade over the channel (body::after)
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") showSidebar(false);
});

function upsert(msg) {
  page.messages.set(msg.id, msg);
  if (!page.channels.has(msg.channel.id)) {
    page.channels.set(msg.channel.id, msg.channel);
    renderChannels();
  }
  if (msg.channel.id !== page.current) {
    page.unread.add(msg.channel.id);
    renderChannels();
    return;
  }
  const list = $("messages");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  const element = messageElement(msg);
  const old = list.querySelector(`li[data-id="${msg.id}"]`);
  if (old) {
    old.replaceWith(element);
  } else {
    const next = [...list.children].find((item) => compareIds(item.dataset.id, msg.id) > 0);
    list.insertBefore(element, next || null);
  }
  if (atBottom || !old) {
    list.scrollTop = list.scrollHeight;
    element.querySelectorAll("img").forEach((image) => image.addEventListener("load", () => {
      list.scrollTop = list.scrollHeight;  // a picture that arrives later keeps the newest message in view
    }));
  }
}

function remove(id) {
  page.messages.delete(id);
  const old = $("messages").querySelector(`li[data-id="${id}"]`);
  if (old) old.remove();
}

// -- acting ------------------------------------------------------------------------------------------

function status(text, kind) {
  const line = $("status");
  line.textContent = text;
  line.className = kind || "";
}

async function act(action, body) {
  status("…", "busy");
  let answer;
  try {
    const response = await fetch(`/api/${action}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    answer = await response.json();
  } catch (error) {
    status(`The page lost the sandbox: ${error}`, "error");
    return null;
  }
  if (answer.error) status(answer.error, "error");
  else if (answer.failed) status(`This interaction failed${answer.reason ? ` (${answer.reason})` : ""}`, "error");
  else status("");
  if (answer.modal) openModal(answer.modal);
  return answer;
}

$("messages").addEventListener("click", (event) => {
  const link = event.target.closest(".channel-link");
  if (link && page.channels.has(link.dataset.channel)) {
    showChannel(link.dataset.channel);
    const message = link.dataset.message && $("messages").querySelector(`li[data-id="${link.dataset.message}"]`);
    if (message) message.scrollIntoView({ block: "start" });
  }
  const target = event.target.closest("button");
  if (!target) return;
  if (target.classList.contains("dismiss")) {
    act("dismiss", { message_id: target.dataset.message }).then((answer) => {
      if (answer && answer.ok) remove(target.dataset.message);
    });
  } else if (target.classList.contains("choose")) {
    const menu = target.closest("fieldset");
    const values = [...menu.querySelectorAll("input:checked")].map((box) => box.value);
    act("select", { message_id: menu.dataset.message, custom_id: menu.dataset.customId, values });
  } else if (target.dataset.customId) {
    act("press", { message_id: target.dataset.message, custom_id: target.dataset.customId });
  }
});

$("messages").addEventListener("change", (event) => {
  const menu = event.target;
  if (menu.tagName !== "SELECT" || menu.multiple || !menu.dataset.customId) return;
  act("select", { message_id: menu.dataset.message, custom_id: menu.dataset.customId, values: [menu.value] });
});

// -- slash commands ------------------------------------------------------------------------------------

function commandEntries() {
  const entries = [];
  const walk = (prefix, options, description) => {
    const subs = (options || []).filter((option) => option.type === 1 || option.type === 2);
    if (!subs.length) {
      entries.push({ name: prefix, description, options: options || [] });
      return;
    }
    subs.forEach((sub) => walk(`${prefix} ${sub.name}`, sub.options, sub.description));
  };
  page.commands.forEach((command) => walk(command.name, command.options, command.description));
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

function optionField(option) {
  const id = `option-${option.name}`;
  let input;
  if (option.choices && option.choices.length) {
    input = `<select id="${esc(id)}" name="${esc(option.name)}">${option.required ? "" : '<option value="">—</option>'}`
      + `${option.choices.map((choice) => `<option value="${esc(choice.value)}">${esc(choice.name)}</option>`).join("")}</select>`;
  } else if (option.type === 4 || option.type === 10) {
    input = `<input id="${esc(id)}" name="${esc(option.name)}" type="number" step="${option.type === 4 ? 1 : "any"}"`
      + `${option.min_value != null ? ` min="${esc(option.min_value)}"` : ""}`
      + `${option.max_value != null ? ` max="${esc(option.max_value)}"` : ""}${option.required ? " required" : ""}>`;
  } else if (option.type === 5) {
    input = `<select id="${esc(id)}" name="${esc(option.name)}"><option value="">—</option>`
      + '<option value="true">True</option><option value="false">False</option></select>';
  } else if (option.type === 6) {
    input = `<select id="${esc(id)}" name="${esc(option.name)}"><option value="">—</option>`
      + `${page.members.map((member) => `<option value="${esc(member.id)}">${esc(member.name)}</option>`).join("")}</select>`;
  } else if (option.type === 3) {
    input = `<input id="${esc(id)}" name="${esc(option.name)}" type="text"${option.required ? " required" : ""}>`;
  } else {
    return "";
  }
  return `<label class="option" title="${esc(option.description || "")}"><span>${esc(option.name)}`
    + `${option.required ? "*" : ""}</span>${input}</label>`;
}

function showCommandOptions() {
  const entry = commandEntries().find((item) => item.name === $("command-name").value);
  $("command-options").innerHTML = entry ? entry.options.map(optionField).join("") : "";
  $("command-name").title = entry ? entry.description || "" : "";
}

function renderCommands() {
  const menu = $("command-name");
  const chosen = menu.value || "play";
  menu.innerHTML = commandEntries().map((entry) => `<option value="${esc(entry.name)}" title="${esc(entry.description || "")}">`
    + `${esc(entry.name)}</option>`).join("");
  if ([...menu.options].some((option) => option.value === chosen)) menu.value = chosen;
  showCommandOptions();
}

$("command-name").addEventListener("change", showCommandOptions);
$("command-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const options = {};
  $("command-options").querySelectorAll("[name]").forEach((field) => {
    if (field.value !== "") options[field.name] = field.value;
  });
  act("command", { channel_id: page.current, name: $("command-name").value, options });
});

// -- modals ------------------------------------------------------------------------------------------

function modalField(component, label, description) {
  const id = esc(component.custom_id);
  const title = `<span>${esc(label || component.label || "")}${component.required === false ? "" : "*"}</span>`
    + `${description ? `<small>${esc(description)}</small>` : ""}`;
  if (component.type === 4) {
    const common = `name="${id}" placeholder="${esc(component.placeholder || "")}"`
      + `${component.max_length ? ` maxlength="${esc(component.max_length)}"` : ""}`
      + `${component.required === false ? "" : " required"}`;
    const value = esc(component.value || "");
    const input = component.style === 2 ? `<textarea ${common}>${value}</textarea>` : `<input ${common} value="${value}">`;
    return `<label class="modal-field">${title}${input}</label>`;
  }
  if (component.type === 3) {
    const options = (component.options || []).map((option) => `<option value="${esc(option.value)}"`
      + `${option.default ? " selected" : ""}>${esc(option.label)}</option>`).join("");
    return `<label class="modal-field">${title}<select name="${id}" data-select="1"`
      + `${(component.max_values || 1) > 1 ? " multiple" : ""}>${options}</select></label>`;
  }
  return "";
}

function openModal(modal) {
  const dialog = $("modal");
  $("modal-title").textContent = modal.title;
  const msg = { emojis: {}, mentions: {} };
  $("modal-body").innerHTML = modal.components.map((component) => {
    if (component.type === 1) return (component.components || []).map((child) => modalField(child)).join("");
    if (component.type === 18) return modalField(component.component || {}, component.label, component.description);
    if (component.type === 10) return `<div class="text">${markdown(component.content, msg)}</div>`;
    return "";
  }).join("");
  dialog.dataset.modal = modal.id;
  dialog.showModal();
}

$("modal-cancel").addEventListener("click", () => $("modal").close());
$("modal-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const values = {};
  $("modal-body").querySelectorAll("[name]").forEach((field) => {
    values[field.name] = field.dataset.select ? [...field.selectedOptions].map((option) => option.value) : field.value;
  });
  $("modal").close();
  act("modal", { modal_id: $("modal").dataset.modal, values });
});

// -- live updates ------------------------------------------------------------------------------------

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    page.you = state.you;
    page.home = state.home;
    page.members = state.members;
    page.commands = state.commands;
    page.channels = new Map(state.channels.map((channel) => [channel.id, channel]));
    page.messages = new Map(state.messages.map((msg) => [msg.id, msg]));
    $("you").textContent = `You are ${state.you.name}`;
    renderCommands();
    showChannel(page.current && page.channels.has(page.current) ? page.current : state.home);
    document.body.dataset.ready = "1";
  });
  events.addEventListener("message", (event) => upsert(JSON.parse(event.data)));
  events.addEventListener("delete", (event) => remove(JSON.parse(event.data).id));
  events.addEventListener("error", () => status("Reconnecting to the sandbox…", "busy"));
  events.addEventListener("open", () => status(""));
}

setInterval(() => {
  document.querySelectorAll('time.ts[data-style="R"]').forEach((element) => {
    element.textContent = timestamp(+element.dataset.ts, "R");
  });
}, 1000);

connect();
