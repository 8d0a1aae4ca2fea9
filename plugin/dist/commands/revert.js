module.exports = require('./_rest.js')["revert"];
