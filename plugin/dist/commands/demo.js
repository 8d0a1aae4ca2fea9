module.exports = require('./_rest.js')["demo"];
