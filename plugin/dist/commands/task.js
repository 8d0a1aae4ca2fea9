module.exports = require('./_rest.js')["task"];
