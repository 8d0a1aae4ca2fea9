module.exports = require('./_rest.js')["get"];
