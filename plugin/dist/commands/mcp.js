module.exports = require('./_rest.js')["mcp"];
