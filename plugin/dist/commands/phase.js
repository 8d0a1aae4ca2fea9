module.exports = require('./_rest.js')["phase"];
