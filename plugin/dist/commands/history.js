module.exports = require('./_rest.js')["history"];
