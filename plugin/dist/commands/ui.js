module.exports = require('./_rest.js')["ui"];
