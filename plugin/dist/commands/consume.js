module.exports = require('./_rest.js')["consume"];
