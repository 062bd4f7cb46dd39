// SiYuan starts a plugin's kernel.js only when the plugin also has a
// front-end index.js (kernel/model/plugin.go, loadCode), so this one is
// empty on purpose: everything editkit does is in kernel.js, whose tools
// SiYuan's agent and any MCP client of SiYuan's /mcp call.
const { Plugin } = require('siyuan');

module.exports = class EditkitPlugin extends Plugin {};
