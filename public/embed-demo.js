// The embed demo's host side (docs/embed.md): buttons that drive the frame over postMessage and
// a log of what the frame sends. A file, not an inline script: the site's CSP forbids those.
const frame = document.getElementById('embed-api');
const log = document.querySelector('.host-log');
const status = document.querySelector('.host-status');

// A small scenario for "Load": two nodes and a DaemonSet, checked in the frame as an opened file.
const SCENARIO = `scenario: host-loaded
title: Loaded by the host page
seed: 1
nodes:
  - {pool: node, count: 2, from: 1}
files:
  agent.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: host-agent
    spec:
      selector:
        matchLabels: {app: host-agent}
      template:
        metadata:
          labels: {app: host-agent}
        spec:
          containers:
          - name: agent
            image: busybox:1.36
            command: ["sh", "-c", "sleep 1000000"]
script:
  - kubectl apply -f agent.yaml
  - kubectl rollout status ds/host-agent
`;

const COMMANDS = {
  play: { type: 'dsplay:play' },
  pause: { type: 'dsplay:pause' },
  seek: { type: 'dsplay:seek', t: 30 },
  speed: { type: 'dsplay:speed', x: 4 },
  step: { type: 'dsplay:step' },
  load: { type: 'dsplay:load', scenario: SCENARIO },
};

for (const button of document.querySelectorAll('[data-send]')) {
  button.addEventListener('click', () => {
    // The frame is sandboxed (opaque origin): '*' is the only target origin that reaches it.
    frame.contentWindow.postMessage(COMMANDS[button.dataset.send], '*');
  });
}

function summary(data) {
  if (data.type !== 'dsplay:state') return JSON.stringify(data);
  const ds = Object.entries(data.counters)
    .map(([name, c]) => `${name} ${c.desired}/${c.current}/${c.ready}/${c.updated}/${c.available}`)
    .join(', ');
  return `dsplay:state t=${data.t.toFixed(2)}s ${ds || '(no DaemonSet)'}`;
}

addEventListener('message', (event) => {
  // Only this page's own embed; other frames' messages are not ours to log.
  if (event.source !== frame.contentWindow) return;
  const data = event.data;
  if (typeof data?.type !== 'string' || !data.type.startsWith('dsplay:')) return;
  if (data.type === 'dsplay:ready') status.textContent = 'connected: the embed sent dsplay:ready';
  const text = summary(data);
  // States come every frame while it plays: the log keeps one line per state, the newest 200.
  const item = document.createElement('li');
  item.textContent = text;
  item.dataset.type = data.type;
  log.append(item);
  while (log.children.length > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
});
