module.exports = require('./_rest.js')["show"];
