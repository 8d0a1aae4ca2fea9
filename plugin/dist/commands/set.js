module.exports = require('./_rest.js')["set"];
